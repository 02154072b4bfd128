// gen-types end to end on the current backend (PGlite, or native with DATABASE_URL): the fixture
// migration introspects to the reviewed expected file, and --check fails once a migration adds a table.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from './gen-types/generate.js';

const run = promisify(execFile);
const fixtures = new URL('./gen-types/fixtures/', import.meta.url);
const script = new URL('./gen-types.ts', import.meta.url).pathname;
const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;

/** Runs the CLI as `npm run check:types` would; resolves with its exit code and output. */
async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, [script, ...args], { env: process.env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'postbox-gen-types-'));
  await cp(new URL('./project/', fixtures), project, { recursive: true });
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('gen-types', () => {
  it('renders the fixture migration exactly as the reviewed expected file', async () => {
    const expected = await readFile(new URL('./expected.types.txt', fixtures), 'utf8');
    expect(await generateTypes({ projectDir: project })).toBe(expected);
  }, 120_000);

  it('--check passes on a fresh file and fails with a clear message once a migration adds a table', async () => {
    await mkdir(join(project, 'lib'), { recursive: true });
    const written = await cli(['--project-dir', project]);
    expect(written.code).toBe(0);
    expect(await readFile(join(project, 'lib', 'database.types.ts'), 'utf8')).toContain(
      'subscribers: {',
    );

    const fresh = await cli(['--check', '--project-dir', project]);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('is up to date');

    await writeFile(
      join(project, 'supabase', 'migrations', '20260102000000_add_notes.sql'),
      'create table public.notes (id bigint primary key, body text);\n',
    );
    const stale = await cli(['--check', '--project-dir', project]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('lib/database.types.ts is stale: run npm run gen:types');
  }, 180_000);
});
