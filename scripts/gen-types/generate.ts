// Generates the Database types of a project: boots a throw-away emulator (which applies the
// project's supabase/migrations), introspects `public` and renders it.
import { startEmulator } from '../../emulator/index.js';
import { introspect } from './introspect.js';
import { renderDatabaseTypes } from './render.js';

export interface GenerateOptions {
  /** Folder holding `supabase/migrations`; default the current directory. */
  projectDir?: string;
  /** Native Postgres to use instead of PGlite; default DATABASE_URL, as the emulator does. */
  databaseUrl?: string;
}

export async function generateTypes(options: GenerateOptions = {}): Promise<string> {
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: options.projectDir,
    databaseUrl: options.databaseUrl,
  });
  try {
    return await renderDatabaseTypes(await introspect(emu.db, ['public']));
  } finally {
    await emu.stop();
  }
}
