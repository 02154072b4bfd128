// Refusals over SMTP (SPEC §9), through process-queue's SMTP transport (mail.ts and its pool,
// smtp-pool.ts) into a real SMTP server that refuses some recipients: a 4xx is deferred and queued
// again, a 5xx fails at once, and the messages around them on the same connections still go out.
// (failures.integration.test.ts covers the back-off and retry through the HTTP email API.)
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { listWithSubscribers, newCampaign, processQueue, startCampaignEmulator } from './kit';

let emu: RunningEmulator;
let server: SMTPServer;
/** The SMTP reply code refusing each address (the rest are accepted). */
const refusals = new Map<string, number>();
const accepted: string[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = refusals.get(address.address);
      if (!code) return callback();
      callback(Object.assign(new Error(`not now: ${address.address}`), { responseCode: code }));
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  emu = await startCampaignEmulator(
    { POSTBOX_SEND_RATE: 'unlimited' },
    { host: '127.0.0.1', port },
  );
});
afterAll(async () => {
  await emu?.stop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('SMTP refusals', () => {
  it('defers a 4xx recipient, fails a 5xx one and sends the rest', async () => {
    const tag = `smtp${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 6);
    const [busy, gone] = [`${tag}-2@example.com`, `${tag}-5@example.com`];
    refusals.set(busy, 451);
    refusals.set(gone, 550);
    const id = await newCampaign(emu, [slug]);
    await sql(emu, `select public.start_campaign_send($1, '<p>x</p>')`, [id]);

    const run = await processQueue(emu, { budget_ms: 5000 });
    expect(run.body).toMatchObject({ claimed: 6, sent: 4, deferred: 1, failed: 1 });
    const rows = await sql<{ email: string; status: string; attempts: number; last_error: string }>(
      emu,
      `select s.email, d.status, d.attempts, coalesce(d.last_error, '') as last_error
         from public.deliveries d join public.subscribers s on s.id = d.subscriber_id
        where d.campaign_id = $1`,
      [id],
    );
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    expect(byEmail.get(busy)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(byEmail.get(busy)!.last_error).toContain('451');
    expect(byEmail.get(gone)).toMatchObject({ status: 'failed' });
    expect(byEmail.get(gone)!.last_error).toContain('550');
    const sent = rows.filter((r) => r.status === 'sent').map((r) => r.email);
    expect(sent).toHaveLength(4);
    expect(accepted.filter((a) => a.startsWith(`${tag}-`)).sort()).toEqual(sent.sort());
  }, 60_000);
});
