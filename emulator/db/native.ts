// A native Postgres server (DATABASE_URL) behind the same Db interface, through a node-postgres pool.
import pg from 'pg';
import {
  TEXT_RESULT_TYPES,
  type Db,
  type Queryable,
  type QueryResult,
  type TransactionOptions,
} from './types.js';
import { statementName } from './statement-names.js';

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (TEXT_RESULT_TYPES.includes(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * `opening` is what was pipelined ahead of the first query (BEGIN and the setup statement): the
 * first query is sent at once, behind it, and answers with its error if it failed.
 */
function wrap(client: pg.Pool | pg.PoolClient, opening?: () => Promise<unknown> | null): Queryable {
  return {
    async query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
      const sent = client.query({ text: sql, values: params, types });
      const ahead = opening?.();
      if (ahead) {
        // Behind a failed setup this query fails too (25P02); the setup's error is the one to report.
        sent.catch(() => undefined);
        await ahead;
      }
      const result = await sent;
      // A multi-statement text returns an array; callers use exec() for those.
      return {
        rows: result.rows as R[],
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        affectedRows: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0),
      };
    },
    async exec(sql: string): Promise<void> {
      const sent = client.query(sql);
      const ahead = opening?.();
      if (ahead) {
        sent.catch(() => undefined);
        await ahead;
      }
      await sent;
    },
  };
}

/**
 * Sends BEGIN and the setup statement without waiting for their answers: the pool's clients run
 * in node-postgres's pipeline mode, so the transaction's first query follows them on the wire and
 * the three cost one round trip instead of three.
 */
function open(client: pg.PoolClient, options: TransactionOptions): Promise<unknown> {
  const begun = client.query(options.readOnly ? 'begin read only' : 'begin');
  const setup = options.setup
    ? client.query({
        // Prepared once per connection: no parse and plan per request.
        name: statementName(options.setup.sql),
        text: options.setup.sql,
        values: options.setup.params,
        types,
      })
    : null;
  const opened = Promise.all([begun, setup]);
  // Reported by the first query (or by the commit when there is none), never unhandled.
  opened.catch(() => undefined);
  return opened;
}

/**
 * Every LISTEN of the emulator shares one dedicated connection instead of holding a pooled one
 * each. If it drops, it reconnects and listens again (notifications sent meanwhile are lost, as
 * for any Postgres listener). Services start listening at the same time, so LISTEN/UNLISTEN go
 * out one after another through `send`: node-postgres only queues a query issued while another
 * runs as a deprecated fallback ("Calling client.query() when the client is already executing a
 * query"), which pg@9 removes.
 */
class Notifications {
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private client: Promise<pg.Client> | null = null;
  private closed = false;
  /** The last command sent on the connection; the next one waits for it. */
  private commands: Promise<unknown> = Promise.resolve();

  private send(client: pg.Client, sql: string): Promise<unknown> {
    const run = this.commands.then(() => client.query(sql));
    this.commands = run.catch(() => undefined);
    return run;
  }

  constructor(private readonly connectionString: string) {}

  private connect(): Promise<pg.Client> {
    this.client ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      const lost = () => {
        client.removeAllListeners('notification');
        this.client = null;
        if (!this.closed && this.channels.size) {
          setTimeout(() => void this.connect().catch(() => undefined), 1000).unref();
        }
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (msg) => {
        for (const listener of this.channels.get(msg.channel) ?? []) listener(msg.payload ?? '');
      });
      try {
        await client.connect();
        for (const channel of this.channels.keys()) {
          await this.send(client, `listen ${pg.escapeIdentifier(channel)}`);
        }
      } catch (err) {
        this.client = null;
        throw err;
      }
      return client;
    })();
    return this.client;
  }

  async listen(channel: string, onNotify: (payload: string) => void) {
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
      const client = await this.connect();
      await this.send(client, `listen ${pg.escapeIdentifier(channel)}`);
    }
    set.add(onNotify);
    const listeners = set;
    return async () => {
      listeners.delete(onNotify);
      if (listeners.size || this.channels.get(channel) !== listeners) return;
      this.channels.delete(channel);
      const client = await this.client?.catch(() => null);
      if (client) {
        await this.send(client, `unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      }
    };
  }

  async close() {
    this.closed = true;
    const client = await this.client?.catch(() => null);
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

export async function openNative(connectionString: string): Promise<Db & { pool: pg.Pool }> {
  // Pipeline mode: queries issued without waiting share a round trip (see open()); used one at a
  // time, a pipelined client behaves as any other.
  const pool = new pg.Pool({ connectionString, max: 10, pipeline: true });
  // An idle pooled connection that dies (server restart) must not crash the emulator; the pool
  // replaces it and the next query reports any real problem.
  pool.on('error', () => undefined);
  // Fail fast with the server's own message when the URL is wrong.
  await pool.query('select 1');
  const base = wrap(pool);
  const notifications = new Notifications(connectionString);
  return {
    kind: 'postgres',
    pool,
    query: base.query,
    exec: base.exec,
    async transaction(fn, options) {
      const client = await pool.connect();
      let releasing = false;
      try {
        let opening: Promise<unknown> | null = null;
        if (options?.setup || options?.readOnly) opening = open(client, options);
        else await client.query('begin');
        const first = () => {
          const ahead = opening;
          opening = null;
          return ahead;
        };
        const result = await fn(wrap(client, first));
        await first();
        const committed = client.query('commit');
        if (!options?.readOnly) {
          await committed;
          return result;
        }
        // A read-only transaction's COMMIT cannot change its answer, so the answer does not wait
        // for it; the connection goes back to the pool once it is done (or is dropped if it failed).
        releasing = true;
        committed.then(
          () => client.release(),
          (err: Error) => client.release(err),
        );
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        if (!releasing) client.release();
      }
    },
    listen: (channel, onNotify) => notifications.listen(channel, onNotify),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
