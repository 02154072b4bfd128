// The Deno.serve shapes a function may use, through the functions service on its own.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS } from '../keys.js';
import { createFunctionsService } from './service.js';

const ORIGIN = 'http://127.0.0.1:1';
const service = createFunctionsService({
  functionsDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  config: { 'serve-object': { verifyJwt: false }, 'default-export': { verifyJwt: false } },
  url: ORIGIN,
  keys: KEYS,
  dbUrl: null,
});
afterAll(() => service.close?.());

const call = (path: string) =>
  service.handle(new Request(`${ORIGIN}/functions/v1/${path}`), {
    apikey: null,
    remoteAddress: '127.0.0.1',
  });

describe('Deno.serve inside the emulator', () => {
  it('serves Deno.serve({ handler }) whatever port it asks for', async () => {
    const res = await call('serve-object');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('object style');
  });

  it("answers a handler error with the function's own onError, tagged as hosted tags 5xx", async () => {
    const res = await call('serve-object?throw');
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('custom: boom');
    expect(res.headers.get('sb-error-code')).toBe('EDGE_FUNCTION_ERROR');
  });

  it('leaves 2xx-4xx answers untagged', async () => {
    const res = await call('default-export/a');
    expect(res.status).toBe(200);
    expect(res.headers.get('sb-error-code')).toBeNull();
  });
});
