// `npm run gen:types` writes lib/database.types.ts from supabase/migrations; `npm run check:types`
// (--check) exits 1 when the committed file is stale. --project-dir points at another project.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateTypes } from './gen-types/generate.js';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    'project-dir': { type: 'string', default: '.' },
    out: { type: 'string' },
  },
});
const projectDir = resolve(values['project-dir']);
const outFile = resolve(values.out ?? join(projectDir, 'lib', 'database.types.ts'));
const shown = relative(process.cwd(), outFile) || outFile;

async function readCurrent(): Promise<string | null> {
  try {
    return await readFile(outFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

try {
  const generated = await generateTypes({ projectDir });
  if (values.check) {
    if ((await readCurrent()) !== generated) {
      console.error(`${shown} is stale: run npm run gen:types`);
      process.exit(1);
    }
    console.log(`${shown} is up to date`);
  } else {
    await mkdir(dirname(outFile), { recursive: true });
    await writeFile(outFile, generated);
    console.log(`wrote ${shown}`);
  }
} catch (err) {
  console.error(`gen-types failed: ${(err as Error).message}`);
  process.exit(2);
}
