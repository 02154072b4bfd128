// fetchAtBuild against a local HTTP server: answers, errors, an unreachable host, the strict mode.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let server: Server;
let base = '';
const seen: Array<{ url: string; apikey: string | undefined; method: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({
      url: req.url ?? '',
      apikey: req.headers.apikey as string,
      method: req.method ?? '',
    });
    if (req.url?.startsWith('/rest/v1/ok')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify([{ site_name: 'Built' }]));
    } else if (req.url?.startsWith('/rest/v1/slow')) {
      setTimeout(() => res.end('[]'), 2000);
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"message":"nope"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
  seen.length = 0;
});

async function load(url: string) {
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', url);
  vi.stubEnv('NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY', 'sb_publishable_test');
  return import('./fetch-public');
}

describe('fetchAtBuild', () => {
  it('answers the JSON with the publishable key, once per path', async () => {
    const { fetchAtBuild } = await load(base);
    expect(await fetchAtBuild('rest/v1/ok')).toEqual([{ site_name: 'Built' }]);
    expect(await fetchAtBuild('/rest/v1/ok')).toEqual([{ site_name: 'Built' }]);
    expect(await fetchAtBuild('rest/v1/ok')).toEqual([{ site_name: 'Built' }]);
    expect(seen.filter((r) => r.url === '/rest/v1/ok')).toHaveLength(2); // two spellings, two keys
    expect(seen[0]).toMatchObject({ apikey: 'sb_publishable_test', method: 'GET' });
  });

  it('is null with one build log line for an error answer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetchAtBuild, clearBuildCache } = await load(base);
    expect(await fetchAtBuild('rest/v1/missing')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/could not read rest\/v1\/missing .*HTTP 404/);
    clearBuildCache();
  });

  it('is null for an unreachable host and after its timeout', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetchAtBuild } = await load('http://127.0.0.1:9');
    expect(await fetchAtBuild('rest/v1/ok')).toBeNull();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/unreachable/);
    vi.resetModules();
    const again = await load(base);
    const started = Date.now();
    expect(await again.fetchAtBuild('rest/v1/slow', { timeoutMs: 200 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(String(warn.mock.calls.at(-1)?.[0])).toMatch(/timed out/);
  });

  it('fails the build instead when the data is required', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('POSTBOX_BUILD_REQUIRE_DATA', '1');
    const { fetchAtBuild } = await load('http://127.0.0.1:9');
    await expect(fetchAtBuild('rest/v1/ok')).rejects.toThrow(/POSTBOX_BUILD_REQUIRE_DATA=1/);
  });
});
