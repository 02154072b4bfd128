// Where a function's code and Deno configuration live, as the Supabase CLI looks for them.

/** Entry files tried in a function's folder, in order (the CLI's default entrypoint is index.ts). */
export const ENTRY_FILES = [
  'index.ts',
  'index.js',
  'index.mts',
  'index.mjs',
  'index.tsx',
  'index.jsx',
];

/** A function's own Deno config; its import map applies to that function only. */
export const CONFIG_FILES = ['deno.json', 'deno.jsonc'];

/** The older project-wide import map at the top of the functions folder. */
export const SHARED_IMPORT_MAP = 'import_map.json';

/**
 * Deno flags for a function's configuration: its own deno.json when it has one, else the shared
 * `import_map.json` if present, else nothing (`--no-config`, so no deno.json or package.json
 * further up the repository changes how the function resolves imports).
 */
export function denoConfigArgs(ownConfig: string | null, sharedImportMap: string | null): string[] {
  if (ownConfig) return [`--config=${ownConfig}`];
  if (sharedImportMap) return ['--no-config', `--import-map=${sharedImportMap}`];
  return ['--no-config'];
}
