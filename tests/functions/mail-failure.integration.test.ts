// Mail sent after the answer (sendInBackground, supabase/functions/_shared/subscriber-mail.ts) when
// the SMTP server cannot be reached: the visitor's subscribe still succeeds and is stored, the
// failure is logged by the function, and the function keeps serving.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { until } from '../campaigns/kit';
import { callFunction, sql, startFunctionsEmulator } from './kit';

/** A local port nothing listens on: taken from the OS, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let emu: RunningEmulator;
const lines: string[] = [];
beforeAll(async () => {
  emu = await startFunctionsEmulator({
    functionsSmtp: { host: '127.0.0.1', port: await closedPort() },
    log: (line) => lines.push(line),
    trustedProxyHops: 1,
  });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const subscribe = (email: string) =>
  callFunction(emu, 'subscribe', {
    body: { email, lists: ['newsletter'] },
    headers: { 'X-Forwarded-For': `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
  });

it('answers and stores a subscribe whose confirmation mail cannot be sent, and logs why', async () => {
  const email = `unsent-${randomBytes(4).toString('hex')}@example.com`;
  const res = await subscribe(email);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'pending' });
  expect(
    await sql<{ status: string }>(
      emu,
      `select s.status from public.subscriptions s join public.subscribers u on u.id = s.subscriber_id
       where u.email = $1`,
      [email],
    ),
  ).toEqual([{ status: 'pending' }]);
  const failed = (line: string) => /\[functions\/subscribe\].*sending mail failed/.test(line);
  await until(async () => lines.some(failed), 10_000, 'the logged mail failure');
  expect(lines.find(failed)).toMatch(/ECONNREFUSED|connect/i);

  // The same function process serves the next visitor.
  const next = await subscribe(`unsent-${randomBytes(4).toString('hex')}@example.com`);
  expect(next.status).toBe(200);
});
