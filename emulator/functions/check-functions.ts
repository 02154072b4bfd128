// `npm run check:functions`: type-checks every edge function with `deno check`, using the config it runs with.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_FILES, denoConfigArgs, ENTRY_FILES, SHARED_IMPORT_MAP } from './layout.js';
import { isFunctionName } from './paths.js';
import { resolveDenoBinary } from './runtime/deno-binary.js';

const functionsDir = resolve(process.argv[2] ?? 'supabase/functions');
const deno = resolveDenoBinary();

function find(dir: string, names: string[]): string | null {
  for (const name of names) if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}

const functions = existsSync(functionsDir)
  ? readdirSync(functionsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && isFunctionName(d.name))
      .map((d) => join(functionsDir, d.name))
      .map((dir) => ({ entry: find(dir, ENTRY_FILES), config: find(dir, CONFIG_FILES) }))
      .filter((f): f is { entry: string; config: string | null } => f.entry !== null)
  : [];

if (functions.length === 0) {
  console.log(`check:functions: no functions under ${functionsDir}`);
  process.exit(0);
}

const sharedImportMap = find(functionsDir, [SHARED_IMPORT_MAP]);

// Functions without their own deno.json are checked together, as they run (shared import map or none).
const groups = new Map<string | null, string[]>();
for (const { entry, config } of functions) {
  groups.set(config, [...(groups.get(config) ?? []), entry]);
}
let failed = false;
for (const [config, entries] of groups) {
  const args = ['check', '--no-lock', ...denoConfigArgs(config, sharedImportMap), ...entries];
  const result = spawnSync(deno, args, { stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
