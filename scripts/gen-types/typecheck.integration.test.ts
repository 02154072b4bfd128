// The rendered fixture types compiled with supabase-js: proves the output is usable as CLI output is
// (row inference through Relationships, identity columns rejected on insert, typed rpc results).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const TSC_FLAGS = [
  '--ignoreConfig',
  '--noEmit',
  '--strict',
  '--skipLibCheck',
  '--target',
  'es2022',
];
const MODULE_FLAGS = ['--module', 'esnext', '--moduleResolution', 'bundler'];

let dir: string;

beforeAll(async () => {
  // Inside the repository so `@supabase/supabase-js` resolves from its node_modules.
  await mkdir(join(root, 'node_modules', '.cache'), { recursive: true });
  dir = await mkdtemp(join(root, 'node_modules', '.cache', 'gen-types-'));
  await copyFile(join(fixtures, 'expected.types.txt'), join(dir, 'database.types.ts'));
  await copyFile(join(fixtures, 'usage.ts.txt'), join(dir, 'usage.ts'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function compile(file: string) {
  try {
    await run(tsc, [...TSC_FLAGS, ...MODULE_FLAGS, join(dir, file)]);
    return '';
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

describe('generated types with supabase-js', () => {
  it('compile, and infer rows, inserts and rpc results as the usage file asserts', async () => {
    expect(await compile('usage.ts')).toBe('');
  }, 120_000);

  it('reject a wrong expectation (so the assertions can fail)', async () => {
    await writeFile(
      join(dir, 'wrong.ts'),
      `import { createClient } from '@supabase/supabase-js'
import type { Database } from './database.types'
const supabase = createClient<Database>('http://127.0.0.1:54321', 'key')
export async function wrong() {
  const { data } = await supabase.from('lists').select('name').single()
  const n: number | undefined = data?.name
  return n
}
`,
    );
    expect(await compile('wrong.ts')).toContain("Type 'string' is not assignable to type 'number'");
  }, 120_000);
});
