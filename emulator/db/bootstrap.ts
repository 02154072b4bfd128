// Creates the platform objects hosted Supabase has before a project's first migration (contract §6).
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './types.js';

const BOOTSTRAP_DIR = fileURLToPath(new URL('./bootstrap/', import.meta.url));

export interface BootstrapFile {
  file: string;
  sql: string;
}

/** emulator/db/bootstrap/*.sql in filename order, with their text. */
export async function bootstrapFiles(): Promise<BootstrapFile[]> {
  const names = (await readdir(BOOTSTRAP_DIR)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (file) => ({ file, sql: await readFile(BOOTSTRAP_DIR + file, 'utf8') })),
  );
}

/** Runs the bootstrap files in order. Every file is idempotent: this runs on every start. */
export async function bootstrapPlatform(db: Db, files?: BootstrapFile[]): Promise<void> {
  for (const { file, sql } of files ?? (await bootstrapFiles())) {
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
