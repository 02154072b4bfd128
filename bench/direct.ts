// The "direct" side of a comparison: the same SQL sent over one connection, without HTTP. On PGlite
// that is the emulator's own in-process database; on native Postgres one pg.Client.
import pg from 'pg';
import type { RunningEmulator } from '../emulator/index.js';

export interface DirectConnection {
  /**
   * Runs one statement the way PostgREST runs a request: in a transaction whose role and JWT
   * claims are set as transaction-local settings first, so RLS applies as it does through REST.
   */
  asRequest(role: string, claims: object, sql: string, params: unknown[]): Promise<unknown[]>;
  /** The statement alone, autocommitted as the connection's superuser: the floor, for context. */
  bare(sql: string, params: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

const SETUP = "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)";

export async function openDirect(emu: RunningEmulator): Promise<DirectConnection> {
  if (emu.db.kind === 'pglite') {
    const db = emu.db;
    return {
      asRequest: (role, claims, sql, params) =>
        db.transaction(async (tx) => {
          await tx.query(SETUP, [role, JSON.stringify(claims)]);
          return (await tx.query(sql, params)).rows;
        }),
      bare: async (sql, params) => (await db.query(sql, params)).rows,
      close: async () => undefined, // The emulator owns the database.
    };
  }
  if (!emu.dbUrl) throw new Error('native backend without a database URL');
  const client = new pg.Client({ connectionString: emu.dbUrl });
  await client.connect();
  return {
    async asRequest(role, claims, sql, params) {
      await client.query('begin');
      try {
        await client.query(SETUP, [role, JSON.stringify(claims)]);
        const { rows } = await client.query(sql, params);
        await client.query('commit');
        return rows;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      }
    },
    bare: async (sql, params) => (await client.query(sql, params)).rows,
    close: () => client.end(),
  };
}
