// Edge functions limited as on hosted: HTML answers to GET become text/plain, SMTP ports 25 and 587 are refused.
import { createServer as createHttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { createFixtureProject, type FixtureProject } from './test-project.js';

let emu: RunningEmulator;
let project: FixtureProject;
const fn = (path: string) => `${emu.url}/functions/v1/${path}`;

beforeAll(async () => {
  project = await createFixtureProject('');
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: project.dir,
  });
}, 120_000);

afterAll(async () => {
  await emu?.stop();
  await project?.remove();
});

describe('function responses', () => {
  it('serves a text/html answer to a GET as text/plain, charset kept; other methods unchanged', async () => {
    const get = fn('html');
    const res = await fetch(get);
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      '<p>hello</p>',
    ]);
    const post = await fetch(get, { method: 'POST', body: '{}' });
    expect(post.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await post.arrayBuffer();
  }, 90_000);
});

describe('outgoing connections', () => {
  it('refuses ports 25 and 587 through Deno.connect, fetch and node:net, and allows others', async () => {
    for (const port of [25, 587]) {
      const res = await fetch(fn(`smtp-ports?port=${port}`));
      expect(await res.json()).toEqual({
        deno: 'PermissionDenied',
        node: 'EACCES',
        fetch: 'PermissionDenied',
      });
    }
    // A listening port on the same host still connects (an HTTP server, so fetch gets a 204).
    const server = createHttpServer((_req, res) => res.writeHead(204).end());
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    try {
      const res = await fetch(fn(`smtp-ports?port=${port}`));
      expect(await res.json()).toEqual({
        deno: 'connected',
        node: 'connected',
        fetch: 'connected',
      });
    } finally {
      server.close();
    }
  }, 90_000);
});
