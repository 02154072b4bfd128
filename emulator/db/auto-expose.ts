// `[api] auto_expose_new_tables` of config.toml: on, new objects `postgres` creates in `public`
// get the old default grants to the API roles again (what projects written before the 2026
// change expect); off (the default), bootstrap's 15-privileges.sql leaves them ungranted.
import type { Db } from './types.js';

/** Runs after the bootstrap on every start, so switching the setting takes effect on restart. */
export async function applyAutoExpose(db: Db, on: boolean): Promise<void> {
  if (!on) return;
  await db.exec(`
    alter default privileges for role postgres in schema public
      grant all on tables to anon, authenticated, service_role;
    alter default privileges for role postgres in schema public
      grant all on functions to anon, authenticated, service_role;
    alter default privileges for role postgres in schema public
      grant all on sequences to anon, authenticated, service_role;
  `);
}
