// pg_net stand-in end to end: requests queued in SQL are sent by the emulator, responses land in net._http_response.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { startTestProjectWithClient } from '../test-project.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names as sent, in order. */
  names: string[];
  body: string;
}

let project: Awaited<ReturnType<typeof startTestProjectWithClient>>;
let emu: RunningEmulator;
let client: pg.Client;
let server: Server;
let target: string;
const seen: Seen[] = [];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function response(id: string) {
  return waitFor(`response ${id}`, async () => {
    const { rows } = await client.query('select * from net._http_response where id = $1', [id]);
    return rows[0] as Record<string, unknown> | undefined;
  });
}

// The product's migration: a cron job that posts to an edge function every few seconds.
const migration = (url: string) => `
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

select cron.schedule('process-queue', '1 seconds', $$
  select net.http_post(
    url := '${url}/functions/v1/process-queue',
    headers := jsonb_build_object('Authorization', 'Bearer ' || 'service-key', 'Content-Type', 'application/json'),
    body := '{}'::jsonb
  )
$$);
`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, names, body });
      if (req.url?.startsWith('/slow')) {
        setTimeout(() => res.end('late'), 2000).unref();
        return;
      }
      if (req.url?.startsWith('/moved')) {
        res.writeHead(302, { Location: '/landed' }).end();
        return;
      }
      // Compresses only when asked to, as servers do: libcurl without CURLOPT_ACCEPT_ENCODING never asks.
      if (req.url?.startsWith('/maybe-gzip') && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' });
        res.end(gzipSync('squeezed'));
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Echo', 'yes');
      res.statusCode = req.url?.startsWith('/created') ? 201 : 200;
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  project = await startTestProjectWithClient('net', {
    'migrations/20260101000000_process_queue.sql': migration(target),
  });
  ({ emu, client } = project);
}, 60_000);

afterAll(async () => {
  await project?.stop();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
});

describe('pg_net stand-in', () => {
  it('sends what a scheduled job posts, and records the response', async () => {
    const hit = await waitFor('the scheduled POST', async () =>
      seen.find((s) => s.url === '/functions/v1/process-queue'),
    );
    expect(hit.method).toBe('POST');
    expect(hit.body).toBe('{}');
    expect(hit.headers.authorization).toBe('Bearer service-key');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toMatch(/^pg_net\//);
    await client.query(`select cron.unschedule('process-queue')`);
    const { rows } = await waitFor('a recorded job response', async () => {
      const r = await client.query(
        `select status_code, timed_out, error_msg from net._http_response where status_code = 200 limit 1`,
      );
      return r.rows.length > 0 && r;
    });
    expect(rows).toEqual([{ status_code: 200, timed_out: false, error_msg: null }]);
  });

  it('net.http_post: body, headers and params as pg_net sends them; response row with status, headers, content', async () => {
    const { rows } = await client.query(
      `select net.http_post(url := $1, body := '{"a": 1}'::jsonb,
         params := '{"q": "a b&é"}'::jsonb, headers := '{"X-Key": "k"}'::jsonb) as id`,
      [`${target}/created?x=1`],
    );
    const row = await response(rows[0].id);
    expect(row).toMatchObject({
      status_code: 201,
      content_type: 'application/json',
      timed_out: false,
      error_msg: null,
    });
    expect((row.headers as Record<string, string>)['x-echo']).toBe('yes');
    expect(JSON.parse(row.content as string)).toEqual({
      method: 'POST',
      url: '/created?x=1&q=a%20b%26%C3%A9',
      body: '{"a": 1}',
    });
    const hit = seen.find((s) => s.url.startsWith('/created'))!;
    expect(hit.headers['x-key']).toBe('k');
    // pg_net adds the JSON content type when the caller's headers leave it out.
    expect(hit.headers['content-type']).toBe('application/json');
    const err = await client
      .query(`select net.http_post($1, headers := '{"Content-Type": "text/plain"}'::jsonb)`, [
        target,
      ])
      .catch((e: Error) => e);
    expect((err as Error).message).toBe('Content-Type header must be "application/json"');
  });

  it('sends only the headers libcurl sends, asks for no compression and keeps the body as sent', async () => {
    const { rows } = await client.query(
      `select net.http_get($1, headers := '{"X-Key": "k"}'::jsonb) as id`,
      [`${target}/maybe-gzip`],
    );
    const row = await response(rows[0].id);
    const hit = seen.find((s) => s.url === '/maybe-gzip')!;
    expect(hit.names.map((n) => n.toLowerCase()).sort()).toEqual([
      'accept',
      'host',
      'user-agent',
      'x-key',
    ]);
    expect(hit.headers).toMatchObject({ accept: '*/*', 'user-agent': 'pg_net/0.20.0' });
    expect(row).toMatchObject({
      status_code: 200,
      content: '{"method":"GET","url":"/maybe-gzip","body":""}',
    });
    expect(row.headers as Record<string, string>).not.toHaveProperty('content-encoding');
  });

  it('follows a 302 after a POST with a bodiless GET, as curl does', async () => {
    const { rows } = await client.query(
      `select net.http_post($1, body := '{"a": 1}'::jsonb) as id`,
      [`${target}/moved`],
    );
    const row = await response(rows[0].id);
    expect(row).toMatchObject({ status_code: 200 });
    const landed = seen.find((s) => s.url === '/landed')!;
    expect(landed).toMatchObject({ method: 'GET', body: '' });
    expect(landed.headers).not.toHaveProperty('content-length');
  });

  it('answers the worker health functions: the worker runs with the emulator', async () => {
    const { rows } = await client.query(
      `select net.check_worker_is_up() is null as up, net.wait_until_running() is null as running,
              net.worker_restart() as restarted`,
    );
    expect(rows).toEqual([{ up: true, running: true, restarted: true }]);
  });

  it("net.http_get reaches the emulator's own /health", async () => {
    const { rows } = await client.query('select net.http_get($1) as id', [`${emu.url}/health`]);
    const row = await response(rows[0].id);
    expect(row).toMatchObject({ status_code: 200, timed_out: false, error_msg: null });
  });

  it("sends http://kong:8000 to its own gateway, as the CLI's Docker network does", async () => {
    const { rows } = await client.query('select net.http_get($1) as id', [
      'http://kong:8000/health',
    ]);
    const row = await response(rows[0].id);
    expect(row).toMatchObject({ status_code: 200, timed_out: false, error_msg: null });
  });

  it('sends nothing for a request whose transaction rolled back', async () => {
    await client.query('begin');
    await client.query('select net.http_get($1)', [`${target}/rolled-back`]);
    await client.query('rollback');
    const { rows } = await client.query('select net.http_get($1) as id', [`${target}/committed`]);
    await response(rows[0].id);
    await sleep(1200); // time for a wrongly sent request to arrive
    expect(seen.map((s) => s.url)).toContain('/committed');
    expect(seen.map((s) => s.url)).not.toContain('/rolled-back');
    expect((await client.query('select count(*)::int n from net.http_request_queue')).rows).toEqual(
      [{ n: 0 }],
    );
  });

  it("records a timeout as timed_out with pg_net's message", async () => {
    const { rows } = await client.query(
      'select net.http_get($1, timeout_milliseconds := 200) as id',
      [`${target}/slow`],
    );
    const row = await response(rows[0].id);
    expect(row).toMatchObject({ status_code: null, content: null, timed_out: true });
    expect(row.error_msg).toMatch(/^Timeout of 200 ms reached\. Total time: \d+\.\d{6} ms \(/);
  });

  it('records an unreachable server as curl reports it', async () => {
    // A port that was free a moment ago (fetch refuses some well-known ones outright).
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((done) => probe.close(done));
    const { rows } = await client.query('select net.http_delete($1) as id', [
      `http://127.0.0.1:${port}/nothing-listens`,
    ]);
    const row = await response(rows[0].id);
    expect(row).toMatchObject({
      status_code: null,
      timed_out: false,
      error_msg: "Couldn't connect to server",
    });
  });

  it('records URLs curl refuses with its wording', async () => {
    const ftp = await client.query('select net.http_get($1) as id', ['ftp://127.0.0.1/file']);
    expect(await response(ftp.rows[0].id)).toMatchObject({
      status_code: null,
      timed_out: false,
      error_msg: 'Unsupported protocol',
    });
    const bad = await client.query('select net.http_get($1) as id', ['not a url']);
    expect(await response(bad.rows[0].id)).toMatchObject({
      status_code: null,
      error_msg: 'URL using bad/illegal format or missing URL',
    });
  });

  it('lets the API roles call the request functions and, as pg_net grants it, read the tables', async () => {
    await client.query('begin');
    try {
      await client.query('set local role anon');
      const { rows } = await client.query('select net.http_get($1) is not null as queued', [
        `${target}/anon`,
      ]);
      expect(rows).toEqual([{ queued: true }]);
      const read = await client.query('select count(*)::int >= 0 as ok from net._http_response');
      expect(read.rows).toEqual([{ ok: true }]);
    } finally {
      await client.query('rollback');
    }
    // A migration can take that away, as on hosted.
    await client.query('revoke all on all tables in schema net from public');
    await client.query('begin');
    try {
      await client.query('set local role anon');
      const { rows } = await client.query('select net.http_get($1) is not null as queued', [
        `${target}/anon-after-revoke`,
      ]);
      expect(rows).toEqual([{ queued: true }]);
      const err = await client.query('select * from net._http_response').catch((e: Error) => e);
      expect((err as { code?: string }).code).toBe('42501');
    } finally {
      await client.query('rollback');
    }
  });
});
