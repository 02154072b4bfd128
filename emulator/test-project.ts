// Test support for integration tests: a throw-away project folder (what `supabase/` would hold) and
// an isolated emulator started on it. Every test that needs its own config or migrations uses this.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from './start.js';

/** Paths relative to `supabase/` → contents; null deletes the file. */
export type ProjectFiles = Record<string, string | null>;

/** Writes (or, for null, deletes) files under `<dir>/supabase/`. */
export async function writeProjectFiles(dir: string, files: ProjectFiles): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, 'supabase', path);
    if (content === null) {
      await rm(full, { force: true });
      continue;
    }
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

export interface TestProject {
  dir: string;
  remove(): Promise<void>;
}

/** A temp folder with `supabase/migrations/` and the given files. */
export async function createTestProject(
  tag: string,
  files: ProjectFiles = {},
): Promise<TestProject> {
  const dir = await mkdtemp(join(tmpdir(), `postbox-${tag}-`));
  await mkdir(join(dir, 'supabase', 'migrations'), { recursive: true });
  await writeProjectFiles(dir, files);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * An in-memory emulator on free ports, on a temp project holding `files`. `stop()` stops it and
 * removes the folder. `options` override the defaults (e.g. `dbPort: 0` for a wire-protocol URL).
 */
export async function startTestProject(
  tag: string,
  files: ProjectFiles = {},
  options: StartEmulatorOptions = {},
): Promise<{ emu: RunningEmulator; dir: string; stop(): Promise<void> }> {
  const project = await createTestProject(tag, files);
  try {
    const emu = await startEmulator({
      memory: true,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      ...options,
      projectDir: project.dir,
    });
    return {
      emu,
      dir: project.dir,
      async stop() {
        await emu.stop();
        await project.remove();
      },
    };
  } catch (err) {
    await project.remove();
    throw err;
  }
}

/**
 * startTestProject with the wire protocol on a free port and one `pg.Client` connected to it, for
 * tests that act as a wire client (psql, the CLI). `stop()` ends the client first.
 */
export async function startTestProjectWithClient(
  tag: string,
  files: ProjectFiles = {},
): Promise<{ emu: RunningEmulator; dir: string; client: pg.Client; stop(): Promise<void> }> {
  const project = await startTestProject(tag, files, { dbPort: 0 });
  const client = new pg.Client({ connectionString: project.emu.dbUrl! });
  try {
    await client.connect();
  } catch (err) {
    await project.stop();
    throw err;
  }
  return {
    ...project,
    client,
    async stop() {
      await client.end();
      await project.stop();
    },
  };
}
