// Realtime in Chromium: the unchanged supabase-js browser bundle over the browser's own WebSocket —
// postgres_changes (with RLS), broadcast with acks between two pages, and presence sync.
import { expect, test, type Page } from '@playwright/test';
import { inbox, openClient, type PageWindow, signUpInPage, sql, unique } from './browser-client';

/** Subscribes `window.sb` to a channel set up by `setup` (a function body over `channel`). */
async function subscribe(page: Page, name: string, setup: string, config: object = {}) {
  const status = await page.evaluate(
    ({ name, setup, config }) => {
      const w = window as unknown as PageWindow;
      const channel = w.sb.channel(name, { config });
      new Function('channel', 'inbox', setup)(channel, w.inbox);
      w.channel = channel;
      return new Promise<string>((resolve) => {
        channel.subscribe((status: string, err?: Error) => {
          if (status === 'SUBSCRIBED') resolve(status);
          else if (status !== 'CLOSED') resolve(`${status}: ${err?.message ?? ''}`);
        });
      });
    },
    { name, setup, config },
  );
  expect(status).toBe('SUBSCRIBED');
}

test('postgres_changes: a row inserted in Postgres reaches the browser as an INSERT', async ({
  page,
}) => {
  const table = unique('rt_notes');
  await sql(`
    create table public.${table} (id int4 primary key, body text, tags text[]);
    grant select on public.${table} to anon, authenticated;
    alter publication supabase_realtime add table public.${table};
  `);
  await openClient(page);
  await subscribe(
    page,
    unique('changes'),
    `channel.on('postgres_changes', { event: '*', schema: 'public', table: '${table}' },
      (p) => inbox.push(p));`,
  );
  await sql(`insert into public.${table} (id, body, tags) values (1, 'hello', '{a,b}')`);
  await expect.poll(() => inbox(page)).toHaveLength(1);
  const [change] = await inbox(page);
  expect(change).toMatchObject({
    schema: 'public',
    table,
    eventType: 'INSERT',
    new: { id: 1, body: 'hello', tags: ['a', 'b'] },
    old: {},
    errors: null,
  });
  expect(typeof change?.commit_timestamp).toBe('string');
});

test('postgres_changes under RLS: a signed-in user receives only the rows it may select', async ({
  page,
}) => {
  const table = unique('rt_private');
  await sql(`
    create table public.${table} (id int4 primary key, owner uuid, body text);
    alter table public.${table} enable row level security;
    grant select on public.${table} to anon, authenticated;
    create policy "owners read their rows" on public.${table} for select to authenticated
      using (owner = auth.uid());
    alter publication supabase_realtime add table public.${table};
  `);
  await openClient(page);
  const me = await signUpInPage(page);
  await subscribe(
    page,
    unique('rls'),
    `channel.on('postgres_changes', { event: 'INSERT', schema: 'public', table: '${table}' },
      (p) => inbox.push(p.new));`,
  );
  const someoneElse = '00000000-0000-4000-8000-000000000001';
  await sql(`insert into public.${table} values (1, $1, 'not mine'), (2, $2, 'mine')`, [
    someoneElse,
    me,
  ]);
  // A third row after both: once it arrives, the earlier foreign row had its chance to leak.
  await sql(`insert into public.${table} values (3, $1, 'mine too')`, [me]);
  await expect.poll(async () => (await inbox(page)).map((r) => r.id)).toEqual([2, 3]);
  expect(await inbox(page)).toEqual([
    { id: 2, owner: me, body: 'mine' },
    { id: 3, owner: me, body: 'mine too' },
  ]);
});

test('broadcast between two browsers: binary frames, self:false and an ack', async ({
  browser,
}) => {
  const name = unique('room');
  const sender = await browser.newPage();
  const receiver = await browser.newPage();
  // What the sender's WebSocket writes: supabase-js (vsn 2.0.0) sends broadcasts as binary frames.
  const binarySent: Buffer[] = [];
  sender.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') binarySent.push(payload);
    }),
  );
  await openClient(sender);
  await openClient(receiver);
  const listen = `channel.on('broadcast', { event: 'wave' }, (m) => inbox.push(m));`;
  await subscribe(receiver, name, listen, { broadcast: { self: false } });
  await subscribe(sender, name, listen, { broadcast: { self: false, ack: true } });

  const acked = await sender.evaluate(() =>
    (window as unknown as PageWindow).channel.send({
      type: 'broadcast',
      event: 'wave',
      payload: { hello: 'from the sender', n: 1 },
    }),
  );
  expect(acked).toBe('ok');
  await expect.poll(() => inbox(receiver)).toHaveLength(1);
  expect((await inbox(receiver))[0]).toMatchObject({
    type: 'broadcast',
    event: 'wave',
    payload: { hello: 'from the sender', n: 1 },
  });
  // kind 3 (user broadcast push) is the first byte of the binary encoding.
  expect(binarySent.some((frame) => frame[0] === 3)).toBe(true);
  // self:false: the sender never hears its own message.
  expect(await inbox(sender)).toEqual([]);
  await sender.close();
  await receiver.close();
});

test('presence: two pages see each other in sync', async ({ browser }) => {
  const name = unique('lobby');
  const pages = [await browser.newPage(), await browser.newPage()];
  const keys = ['alice', 'bob'];
  for (const [i, page] of pages.entries()) {
    await openClient(page);
    await subscribe(
      page,
      name,
      `channel.on('presence', { event: 'sync' }, () => {
        inbox.length = 0;
        inbox.push(channel.presenceState());
      });`,
      { presence: { key: keys[i] } },
    );
    const tracked = await page.evaluate(
      (who) => (window as unknown as PageWindow).channel.track({ who }),
      keys[i],
    );
    expect(tracked).toBe('ok');
  }
  for (const page of pages) {
    await expect
      .poll(async () => {
        const [state] = await inbox<Record<string, Array<{ who: string }>>>(page);
        return Object.fromEntries(
          Object.entries(state ?? {}).map(([key, metas]) => [key, metas.map((m) => m.who)]),
        );
      })
      .toEqual({ alice: ['alice'], bob: ['bob'] });
  }
  // One leaves: the other page's state drops it.
  await pages[1]!.close();
  await expect.poll(async () => Object.keys((await inbox(pages[0]!))[0] ?? {})).toEqual(['alice']);
  await pages[0]!.close();
});
