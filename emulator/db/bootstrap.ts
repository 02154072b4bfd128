// Creates the platform objects hosted Supabase has before a project's first migration (contract §6).
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './types.js';

const BOOTSTRAP_DIR = fileURLToPath(new URL('./bootstrap/', import.meta.url));

/** Runs emulator/db/bootstrap/*.sql in filename order. Every file is idempotent. */
export async function bootstrapPlatform(db: Db): Promise<void> {
  const files = (await readdir(BOOTSTRAP_DIR)).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files) {
    const sql = await readFile(BOOTSTRAP_DIR + file, 'utf8');
    try {
      await db.exec(sql);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new Error(
        `platform bootstrap ${file} failed: ${(err as Error).message}${code ? ` [SQLSTATE ${code}]` : ''}`,
        { cause: err },
      );
    }
  }
}
