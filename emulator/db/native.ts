// A native Postgres server (DATABASE_URL) behind the same Db interface, through a node-postgres pool.
import pg from 'pg';
import { TEXT_RESULT_TYPES, type Db, type Queryable, type QueryResult } from './types.js';

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (TEXT_RESULT_TYPES.includes(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
      const result = await client.query({ text: sql, values: params, types });
      // A multi-statement text returns an array; callers use exec() for those.
      return {
        rows: result.rows as R[],
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        affectedRows: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0),
      };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

export async function openNative(connectionString: string): Promise<Db & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // Fail fast with the server's own message when the URL is wrong.
  await pool.query('select 1');
  const base = wrap(pool);
  return {
    kind: 'postgres',
    pool,
    query: base.query,
    exec: base.exec,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      const client = await pool.connect();
      const handler = (msg: pg.Notification) => {
        if (msg.channel === channel) onNotify(msg.payload ?? '');
      };
      client.on('notification', handler);
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        client.off('notification', handler);
        await client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    close: () => pool.end(),
  };
}
