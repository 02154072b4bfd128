// The functions service on its own with small limits: idle timeout, memory and CPU, streaming.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Service } from '../gateway/types.js';
import { KEYS } from '../keys.js';
import { createFunctionsService } from './service.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const ORIGIN = 'http://127.0.0.1:1';

// No emulator needed: the service answers web-standard requests; nothing here calls back.
interface Limits {
  idleTimeoutMs?: number;
  memoryLimitMb?: number;
  cpuLimitMs?: number;
  bootTimeoutMs?: number;
}
const service = (limits: Limits) =>
  createFunctionsService({
    functionsDir: FIXTURES,
    config: {
      slow: { verifyJwt: false },
      stream: { verifyJwt: false },
      'memory-hog': { verifyJwt: false },
      'cpu-hog': { verifyJwt: false },
      'hang-at-import': { verifyJwt: false },
    },
    url: ORIGIN,
    keys: KEYS,
    dbUrl: null,
    ...limits,
  });
const impatient = service({ idleTimeoutMs: 1500 });
// Small, so running out of memory or CPU is quick (and well inside the default idle limit).
const frugal = service({ memoryLimitMb: 64 });
// CPU time, not wall time: on a loaded machine 500 ms of CPU can take several seconds.
const thrifty = service({ cpuLimitMs: 500 });
const hasty = service({ bootTimeoutMs: 2000 });
afterAll(async () => {
  await impatient.close?.();
  await frugal.close?.();
  await hasty.close?.();
  await thrifty.close?.();
});

const call = (path: string, to: Service = impatient) =>
  to.handle(new Request(`${ORIGIN}/functions/v1/${path}`), {
    apikey: null,
    remoteAddress: '127.0.0.1',
  });

describe('limits', () => {
  it('answers 504 IDLE_TIMEOUT when no response starts within the idle limit', async () => {
    expect(await (await call('slow?ms=10')).text()).toBe('slept 10');
    const res = await call('slow?ms=5000');
    expect(res.status).toBe(504);
    expect(res.headers.get('sb-error-code')).toBe('IDLE_TIMEOUT');
    expect(await res.json()).toEqual({
      code: 'IDLE_TIMEOUT',
      message: 'Request idle timeout limit (2s) reached',
    });
  });

  it('streams a response as the function writes it', async () => {
    const res = await call('stream');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    // The second event only exists once we ask for it, so the first cannot have been buffered.
    expect(await (await call('stream/release')).text()).toBe('released');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe('data: second\n\n');
  });

  it('answers 546 WORKER_LIMIT when the function runs out of memory, then recovers', async () => {
    const res = await call('memory-hog', frugal);
    expect(res.status).toBe(546);
    expect(res.headers.get('sb-error-code')).toBe('WORKER_LIMIT');
    expect(await res.json()).toEqual({
      code: 'WORKER_LIMIT',
      message: 'Worker failed to respond due to a resource limit (please check logs)',
    });
    const again = await call('memory-hog?ok', frugal);
    expect(await again.text()).toBe('small');
  });

  it('answers 546 WORKER_LIMIT when a request spins past its CPU time, then recovers', async () => {
    const res = await call('cpu-hog', thrifty);
    expect(res.status).toBe(546);
    expect(res.headers.get('sb-error-code')).toBe('WORKER_LIMIT');
    const again = await call('cpu-hog?ok', thrifty);
    expect(await again.text()).toBe('idle');
  }, 60_000);

  it('charges concurrent requests their own share of the CPU, not the whole worker’s', async () => {
    // 12 × 100 ms of CPU in flight together: far over 500 ms in total, each well under it.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call('cpu-hog?spin=100', thrifty)),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
  }, 60_000);

  it('answers 503 BOOT_ERROR once when a function never finishes loading', async () => {
    const started = Date.now();
    const res = await call('hang-at-import', hasty);
    expect(res.status).toBe(503);
    expect(res.headers.get('sb-error-code')).toBe('BOOT_ERROR');
    // One boot timeout, not several retries.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
