// Finds the Deno executable the `deno` npm package installed (node_modules/.bin/deno points at it).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function packageDir(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/**
 * The `deno` package copies the binary next to its package.json on install; when install scripts
 * did not run it still ships it in the platform package (`@deno/linux-x64-glibc`, ...). Falls back
 * to `deno` on PATH. `POSTBOX_DENO` overrides all of this.
 */
export function resolveDenoBinary(env: Record<string, string | undefined> = process.env): string {
  if (env.POSTBOX_DENO) return env.POSTBOX_DENO;
  const exe = process.platform === 'win32' ? 'deno.exe' : 'deno';
  const main = packageDir('deno');
  if (main && existsSync(join(main, exe))) return join(main, exe);
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const platformPackage =
    process.platform === 'linux'
      ? `@deno/linux-${arch}-glibc`
      : process.platform === 'darwin'
        ? `@deno/darwin-${arch}`
        : `@deno/win32-${arch}`;
  const fromPlatform = main ? createRequire(join(main, 'package.json')) : require;
  try {
    const dir = dirname(fromPlatform.resolve(`${platformPackage}/package.json`));
    if (existsSync(join(dir, exe))) return join(dir, exe);
  } catch {
    // Not installed for this platform; try PATH.
  }
  return exe;
}
