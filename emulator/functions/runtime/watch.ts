// Watches the functions folder and reports which functions a file change affects (npm run dev reloads).
import { watch, type FSWatcher } from 'node:fs';
import { isFunctionName } from '../paths.js';

/** Which functions a changed file (relative to the functions folder) affects: one, or all. */
export function affectedFunctions(relativePath: string): { all: true } | { name: string } | null {
  const parts = relativePath.split(/[\\/]/).filter(Boolean);
  const first = parts[0];
  if (!first) return null;
  // Files inside a function's folder affect only that function.
  if (parts.length > 1 && isFunctionName(first)) return { name: first };
  // `_shared/`, `.env`, `deno.json`, `import_map.json`: any function may depend on them.
  return { all: true };
}

export interface FunctionsWatcher {
  close(): void;
}

/**
 * Recursive fs.watch (Linux needs Node >= 20), debounced so an editor's save burst reloads once.
 * Calls `reload(names | 'all')`. Returns null when the folder cannot be watched (e.g. missing).
 */
export function watchFunctions(
  dir: string,
  reload: (target: { all: true } | { names: string[] }) => void,
  log: (message: string) => void,
  debounceMs = 100,
): FunctionsWatcher | null {
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { recursive: true });
  } catch (err) {
    log(`not watching ${dir}: ${(err as Error).message}`);
    return null;
  }
  let pending = new Set<string>();
  let all = false;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const target = all ? ({ all: true } as const) : { names: [...pending] };
    pending = new Set();
    all = false;
    reload(target);
  };
  watcher.on('change', (_event, filename) => {
    if (!filename) {
      all = true;
    } else {
      const affected = affectedFunctions(filename.toString());
      if (!affected) return;
      if ('all' in affected) all = true;
      else pending.add(affected.name);
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  watcher.on('error', (err) => log(`watcher error: ${err.message}`));
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
