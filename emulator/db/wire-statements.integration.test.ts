// Prepared statements over the wire protocol belong to their connection, as on a real server (issue 20).
import { connect as netConnect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProject } from '../test-project.js';
import type { RunningEmulator } from '../start.js';

const native = !!process.env.DATABASE_URL;

/** A minimal raw-protocol client, for what node-postgres never sends (an unnamed statement reused). */
class RawClient {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, data]);
      this.waiting?.();
    });
  }

  static async open(url: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    const socket = netConnect(Number(port), hostname);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new RawClient(socket);
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + params.length, 0);
    startup.writeInt32BE(196608, 4);
    socket.write(Buffer.concat([startup, params]));
    await client.untilReady();
    return client;
  }

  private static message(type: string, body: Buffer): Buffer {
    const header = Buffer.alloc(5);
    header.write(type, 0, 'latin1');
    header.writeInt32BE(4 + body.length, 1);
    return Buffer.concat([header, body]);
  }

  /** Sends messages, then returns the types (and error texts / data) up to ReadyForQuery. */
  async send(...messages: Array<[string, Buffer]>): Promise<string[]> {
    this.socket.write(Buffer.concat(messages.map(([type, body]) => RawClient.message(type, body))));
    return this.untilReady();
  }

  private async untilReady(): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      while (this.buffer.length >= 5 && this.buffer.length >= 1 + this.buffer.readInt32BE(1)) {
        const length = this.buffer.readInt32BE(1);
        const type = String.fromCharCode(this.buffer[0]!);
        const body = this.buffer.subarray(5, 1 + length);
        this.buffer = this.buffer.subarray(1 + length);
        if (type === 'E') {
          const at = body.indexOf('M');
          seen.push(`E:${body.subarray(at + 1, body.indexOf(0, at)).toString()}`);
        } else if (type === 'D') {
          seen.push(`D:${body.subarray(6).toString()}`); // one column: count, length, value
        } else seen.push(type);
        if (type === 'Z') return seen;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  close(): void {
    this.socket.end(RawClient.message('X', Buffer.alloc(0)));
  }
}

const parse = (name: string, sql: string) =>
  ['P', Buffer.from(`${name}\0${sql}\0\0\0`)] as [string, Buffer];
const bind = (statement: string) =>
  ['B', Buffer.from(`\0${statement}\0\0\0\0\0\0\0`)] as [string, Buffer];
const execute = ['E', Buffer.from('\0\0\0\0\0')] as [string, Buffer];
const sync = ['S', Buffer.alloc(0)] as [string, Buffer];

describe('prepared statements over the wire protocol', () => {
  let emu: RunningEmulator;
  let stop: () => Promise<void>;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: emu.dbUrl! });
    await c.connect();
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    ({ emu, stop } = await startTestProject('wire-statements', {}, { dbPort: 0 }));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await stop?.();
  });

  it('lets the next connection prepare a name the previous one used', async () => {
    const a = await client();
    const first = await a.query({ name: 'P0', text: 'select $1::int + 1 as n', values: [1] });
    expect(first.rows).toEqual([{ n: 2 }]);
    await a.end();
    const b = await client();
    const second = await b.query({ name: 'P0', text: 'select $1::text as t', values: ['b'] });
    expect(second.rows).toEqual([{ t: 'b' }]);
    // And again, now that b has it: still its own.
    expect(
      (await b.query({ name: 'P0', text: 'select $1::text as t', values: ['c'] })).rows,
    ).toEqual([{ t: 'c' }]);
  });

  it('keeps two open connections apart, each running its own P1', async () => {
    const [a, b] = [await client(), await client()];
    for (let round = 0; round < 3; round++) {
      const ra = await a.query({ name: 'P1', text: 'select $1::int * 10 as n', values: [round] });
      const rb = await b.query({
        name: 'P1',
        text: "select $1::text || '!' as t",
        values: [round],
      });
      expect(ra.rows).toEqual([{ n: round * 10 }]);
      expect(rb.rows).toEqual([{ t: `${round}!` }]);
    }
    // At the same time, too: the queries queue for the session and keep their own statements.
    const both = await Promise.all([
      a.query({ name: 'P1', text: 'select $1::int * 10 as n', values: [7] }),
      b.query({ name: 'P1', text: "select $1::text || '!' as t", values: [7] }),
    ]);
    expect(both.map((r) => r.rows[0])).toEqual([{ n: 70 }, { t: '7!' }]);
  });

  it('drops the statements of a connection when it closes, SQL PREPARE included', async () => {
    const a = await client();
    await a.query({ name: 'gone_on_close', text: 'select 1 as one' });
    await a.query('prepare sql_gone_on_close as select 2 as two');
    await a.end();
    const b = await client();
    await expect
      .poll(
        async () =>
          (
            await b.query<{ n: number }>(
              "select count(*)::int as n from pg_prepared_statements where name like '%gone_on_close'",
            )
          ).rows[0]!.n,
        { timeout: 5000 },
      )
      .toBe(0);
    // The SQL-level name is free again.
    await b.query('prepare sql_gone_on_close as select 3 as three');
    expect((await b.query('execute sql_gone_on_close')).rows).toEqual([{ three: 3 }]);
  });

  it("answers DEALLOCATE ALL by dropping only the connection's own statements", async () => {
    const [a, b] = [await client(), await client()];
    await a.query(
      'create table public.wire_dealloc (id int); grant select on public.wire_dealloc to anon',
    );
    // A REST read prepares the emulator's own statements in the same session (PGlite).
    const read = () =>
      fetch(`${emu.url}/rest/v1/wire_dealloc?select=id`, { headers: { apikey: emu.keys.anon } });
    await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe(200);
    const emulatorStatements = async () =>
      (
        await emu.db.query<{ name: string }>(
          "select name from pg_prepared_statements where name like 'postbox\\_%' order by name",
        )
      ).rows;
    const before = await emulatorStatements();
    await a.query({ name: 'P2', text: 'select 1 as a' });
    await b.query({ name: 'P2', text: 'select 2 as b' });
    await a.query('deallocate all');
    expect((await b.query({ name: 'P2', text: 'select 2 as b' })).rows).toEqual([{ b: 2 }]);
    expect(await emulatorStatements()).toEqual(before);
    if (!native) expect(before.length).toBeGreaterThan(0);
    expect((await read()).status).toBe(200);
  });

  // The raw client speaks no password authentication; on native Postgres these are the server's own.
  it.skipIf(native)('names the client its own statement in errors', async () => {
    const raw = await RawClient.open(emu.dbUrl!);
    expect(await raw.send(parse('dup', 'select 1'), sync)).toEqual(['1', 'Z']);
    expect(await raw.send(parse('dup', 'select 1'), sync)).toEqual([
      'E:prepared statement "dup" already exists',
      'Z',
    ]);
    expect(await raw.send(bind('missing'), execute, sync)).toEqual([
      'E:prepared statement "missing" does not exist',
      'Z',
    ]);
    raw.close();
  });

  it.skipIf(native)(
    'keeps the unnamed statement a client parsed until it replaces it, whoever ran since',
    async () => {
      const raw = await RawClient.open(emu.dbUrl!);
      expect(await raw.send(parse('', "select 'mine'::text"), sync)).toEqual(['1', 'Z']);
      // Another connection and the emulator use the session (and its unnamed statement) meanwhile.
      const other = await client();
      expect((await other.query("select 'theirs' as t, $1::int as n", [1])).rows).toHaveLength(1);
      await emu.db.query("select 'emulator' as t");
      expect(await raw.send(bind(''), execute, sync)).toEqual(['2', 'D:mine', 'C', 'Z']);
      raw.close();
    },
  );

  it.skipIf(native)('leaves no client statement behind in the PGlite session', async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await expect
      .poll(
        async () =>
          (
            await emu.db.query<{ name: string }>(
              "select name from pg_prepared_statements where name not like 'postbox\\_%'",
            )
          ).rows,
        { timeout: 5000 },
      )
      .toEqual([]);
  });
});
