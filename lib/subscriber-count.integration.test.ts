// public_subscriber_count() through the real API as a visitor: null while the owner keeps the count
// hidden, then the number of enabled subscribers with a confirmed public subscription.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../emulator/index';
import { clientFor, sql } from '../tests/functions/kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

async function countAsVisitor(): Promise<unknown> {
  const { data, error } = await clientFor(emu, 'publishable').rpc('public_subscriber_count');
  if (error) throw new Error(error.message);
  return data;
}

describe('public_subscriber_count', () => {
  it('answers null while the count is switched off', async () => {
    await sql(emu, 'update public.settings set show_subscriber_count = false');
    expect(await countAsVisitor()).toBeNull();
  });

  it('counts enabled subscribers with a confirmed subscription to a public list, once each', async () => {
    await sql(emu, 'update public.settings set show_subscriber_count = true');
    // Seed: ada (newsletter + early-access), grace (newsletter + product-updates), alan
    // (early-access confirmed), katherine (private list only), linus (unsubscribed), spam
    // (blocklisted): three count.
    expect(Number(await countAsVisitor())).toBe(3);

    await sql(
      emu,
      `insert into public.subscribers (email) values ('count-a@example.com'), ('count-b@example.com')`,
    );
    const subscribe = `insert into public.subscriptions (subscriber_id, list_id, status)
      select s.id, l.id, $3 from public.subscribers s, public.lists l
       where s.email = $1 and l.slug = $2`;
    await sql(emu, subscribe, ['count-a@example.com', 'product-updates', 'confirmed']);
    await sql(emu, subscribe, ['count-b@example.com', 'newsletter', 'pending']);
    expect(Number(await countAsVisitor())).toBe(4);
  });
});
