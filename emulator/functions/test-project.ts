// Test support: a throw-away project holding the function fixtures, and the supabase-js client tests use.
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

/** The one fixture that keeps verify_jwt's default (true); all others opt out in config.toml. */
export const VERIFIED_FUNCTION = 'echo';

export interface FixtureProject {
  /** Pass as `projectDir` to startEmulator. */
  dir: string;
  functionsDir: string;
  remove(): Promise<void>;
}

/**
 * Copies the fixtures into `<tmp>/supabase/functions`, adds a function with a syntax error (kept
 * out of the repository because Prettier and ESLint cannot parse it), writes `config.toml` with
 * `verify_jwt = false` for every function but `echo`, and a `.env` of user secrets.
 */
export async function createFixtureProject(dotenv: string): Promise<FixtureProject> {
  const dir = await mkdtemp(join(tmpdir(), 'postbox-functions-'));
  const functionsDir = join(dir, 'supabase', 'functions');
  await cp(FIXTURES, functionsDir, { recursive: true });
  await mkdir(join(functionsDir, 'boot-error'));
  await writeFile(
    join(functionsDir, 'boot-error', 'index.ts'),
    "Deno.serve((req) => new Response('never' );;; const = ;\n",
  );
  const names = (await readdir(functionsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && !d.name.startsWith('_') && d.name !== VERIFIED_FUNCTION)
    .map((d) => d.name);
  const toml = names.map((name) => `[functions.${name}]\nverify_jwt = false\n`).join('');
  await writeFile(join(dir, 'supabase', 'config.toml'), toml);
  await writeFile(join(functionsDir, '.env'), dotenv);
  return { dir, functionsDir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The unchanged supabase-js client (its realtime uses Node 22's global WebSocket). */
export function client(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false },
  });
}
