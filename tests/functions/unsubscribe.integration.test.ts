// The `unsubscribe` function over HTTP (SPEC §7, RFC 8058): page data, one-click POST, page
// buttons and undo, against the real functions, migrations and seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  createSubscriber,
  signTestToken,
  snapshot,
  sql,
  startFunctionsEmulator,
} from './kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
});
afterAll(async () => {
  await emu?.stop();
});

interface Person {
  id: string;
  email: string;
}

/** A fresh subscriber with a unique address and the given subscriptions ({slug: status}). */
function person(
  subscriptions: Record<string, string>,
  status: 'enabled' | 'blocklisted' = 'enabled',
): Promise<Person> {
  return createSubscriber(emu, subscriptions, { tag: 'unsub', status });
}

async function listId(slug: string): Promise<string> {
  const [row] = await sql<{ id: string }>(emu, 'select id from public.lists where slug = $1', [
    slug,
  ]);
  return row!.id;
}

async function statuses(who: Person): Promise<Record<string, string>> {
  const rows = await sql<{ slug: string; status: string }>(
    emu,
    `select l.slug, s.status from public.subscriptions s join public.lists l on l.id = s.list_id
      where s.subscriber_id = $1`,
    [who.id],
  );
  return Object.fromEntries(rows.map((r) => [r.slug, r.status]));
}

/** Events since the arrangement (source "system"), one transaction's rows sorted by list. */
async function eventsOf(who: Person): Promise<{ type: string; list: string; source: string }[]> {
  return sql(
    emu,
    `select type, data->>'list' as list, data->>'source' as source from public.events
      where subscriber_id = $1 and data->>'source' <> 'system'
      order by created_at, data->>'list', id`,
    [who.id],
  );
}

const tokenFor = (who: Person, lists?: string[]) =>
  signTestToken(
    lists ? { p: 'unsubscribe', s: who.id, l: lists } : { p: 'unsubscribe', s: who.id },
  );

/** The one-click POST as a mail provider sends it: a bare form, no apikey, no Authorization. */
async function oneClick(token: string, body = 'List-Unsubscribe=One-Click', type?: string) {
  const url = `${emu.url}/functions/v1/unsubscribe?token=${encodeURIComponent(token)}`;
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': type ?? 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
}

describe('GET: what the page shows', () => {
  it('answers the masked address and the lists, and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'pending' });
    const before = await snapshot(emu);
    const res = await callFunction(emu, 'unsubscribe', { query: { token: tokenFor(who) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body.email).toBe('u***@example.com');
    expect(res.body.email).not.toContain(who.email.split('@')[0]!.slice(1));
    expect(res.body.lists).toEqual([
      { slug: 'newsletter', name: 'The newsletter', status: 'confirmed' },
      { slug: 'product-updates', name: 'Product updates', status: 'pending' },
    ]);
    expect(await snapshot(emu)).toBe(before);
  });

  it('shows only the lists a list-specific token names', async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'confirmed' });
    const res = await callFunction(emu, 'unsubscribe', {
      query: { token: tokenFor(who, [await listId('product-updates')]) },
    });
    expect(res.status).toBe(200);
    expect(res.body.lists.map((l: { slug: string }) => l.slug)).toEqual(['product-updates']);
  });

  it('a GET of the one-click URL (a link scanner) unsubscribes nobody', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    const url = `${emu.url}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenFor(who))}`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await snapshot(emu)).toBe(before);
    expect(await statuses(who)).toEqual({ newsletter: 'confirmed' });
  });
});

describe('POST List-Unsubscribe=One-Click (RFC 8058)', () => {
  it('unsubscribes from every list without a key or login, answers 200 and never redirects', async () => {
    const who = await person({ newsletter: 'confirmed', 'early-access': 'pending' });
    const res = await oneClick(tokenFor(who));
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ status: 'unsubscribed' });
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'early-access': 'unsubscribed',
    });
    expect(await eventsOf(who)).toEqual([
      { type: 'unsubscribed', list: 'early-access', source: 'one-click' },
      { type: 'unsubscribed', list: 'newsletter', source: 'one-click' },
    ]);
  });

  it('is idempotent: a repeated POST answers 200 and writes nothing more', async () => {
    const who = await person({ newsletter: 'confirmed' });
    expect((await oneClick(tokenFor(who))).status).toBe(200);
    const before = await snapshot(emu);
    const again = await oneClick(tokenFor(who));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: 'unsubscribed' });
    expect(await snapshot(emu)).toBe(before);
  });

  it("touches only the token's lists when it names some", async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'confirmed' });
    const res = await oneClick(tokenFor(who, [await listId('newsletter')]));
    expect(res.status).toBe(200);
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'product-updates': 'confirmed',
    });
  });

  it('accepts the form as multipart/form-data too (RFC 8058 §3.1)', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const url = `${emu.url}/functions/v1/unsubscribe?token=${encodeURIComponent(tokenFor(who))}`;
    const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await statuses(who)).toEqual({ newsletter: 'unsubscribed' });
  });

  it('refuses any other form body with 422 and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const before = await snapshot(emu);
    for (const body of ['', 'List-Unsubscribe=Yes', 'unsubscribe=1', 'List-Unsubscribe']) {
      const res = await oneClick(tokenFor(who), body);
      expect(res.status).toBe(422);
      expect((await res.json()).error.code).toBe('invalid_input');
    }
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('POST JSON: the page buttons', () => {
  it('unsubscribes (source unsubscribe-page) and the undo restores (source undo)', async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'pending' });
    const token = tokenFor(who);
    const off = await callFunction(emu, 'unsubscribe', { body: { token, action: 'unsubscribe' } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({
      email: 'u***@example.com',
      lists: [
        { slug: 'newsletter', name: 'The newsletter', status: 'unsubscribed' },
        { slug: 'product-updates', name: 'Product updates', status: 'unsubscribed' },
      ],
    });
    // The token may also travel in the query, as it does in the page's URL.
    const undo = await callFunction(emu, 'unsubscribe', {
      query: { token },
      body: { action: 'resubscribe' },
    });
    expect(undo.status).toBe(200);
    // Each list back to what it was: the pending one stays pending until its opt-in (SPEC §4).
    expect(undo.body.lists.map((l: { status: string }) => l.status)).toEqual([
      'confirmed',
      'pending',
    ]);
    expect(await statuses(who)).toEqual({
      newsletter: 'confirmed',
      'product-updates': 'pending',
    });
    expect(await eventsOf(who)).toEqual([
      { type: 'unsubscribed', list: 'newsletter', source: 'unsubscribe-page' },
      { type: 'unsubscribed', list: 'product-updates', source: 'unsubscribe-page' },
      { type: 'resubscribed', list: 'newsletter', source: 'undo' },
      { type: 'resubscribed', list: 'product-updates', source: 'undo' },
    ]);
  });

  it("undo restores only the token's lists", async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'confirmed' });
    await callFunction(emu, 'unsubscribe', {
      body: { token: tokenFor(who), action: 'unsubscribe' },
    });
    const token = tokenFor(who, [await listId('product-updates')]);
    const res = await callFunction(emu, 'unsubscribe', { body: { token, action: 'resubscribe' } });
    expect(res.status).toBe(200);
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'product-updates': 'confirmed',
    });
  });

  it('undo leaves a list left before the unsubscribe unsubscribed', async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'confirmed' });
    // Left earlier: through another link (only that list) and through preferences.
    const earlier = tokenFor(who, [await listId('newsletter')]);
    await callFunction(emu, 'unsubscribe', { body: { token: earlier, action: 'unsubscribe' } });
    await sql(
      emu,
      `insert into public.subscriptions (subscriber_id, list_id, status)
      select $1, id, 'unsubscribed' from public.lists where slug = 'early-access'`,
      [who.id],
    );
    const token = tokenFor(who);
    const off = await callFunction(emu, 'unsubscribe', { body: { token, action: 'unsubscribe' } });
    expect(off.status).toBe(200);
    const undo = await callFunction(emu, 'unsubscribe', { body: { token, action: 'resubscribe' } });
    expect(undo.status).toBe(200);
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'product-updates': 'confirmed',
      'early-access': 'unsubscribed',
    });
    // A second undo changes nothing more.
    const again = await callFunction(emu, 'unsubscribe', {
      body: { token, action: 'resubscribe' },
    });
    expect(again.status).toBe(200);
    expect((await statuses(who)).newsletter).toBe('unsubscribed');
  });

  it('undo after a one-click unsubscribe restores what the one-click removed, pending as pending', async () => {
    const who = await person({ newsletter: 'pending', 'product-updates': 'confirmed' });
    const token = tokenFor(who);
    expect((await oneClick(token)).status).toBe(200);
    // The page then opens (its own unsubscribe finds nothing left to change) and the visitor undoes.
    await callFunction(emu, 'unsubscribe', { body: { token, action: 'unsubscribe' } });
    const undo = await callFunction(emu, 'unsubscribe', { body: { token, action: 'resubscribe' } });
    expect(undo.status).toBe(200);
    expect(await statuses(who)).toEqual({ newsletter: 'pending', 'product-updates': 'confirmed' });
  });

  it('undo leaves alone a subscription changed again after the unsubscribe', async () => {
    const who = await person({ newsletter: 'confirmed', 'product-updates': 'confirmed' });
    const token = tokenFor(who);
    await callFunction(emu, 'unsubscribe', { body: { token, action: 'unsubscribe' } });
    // Switched back on and off again in preferences since: that later choice stands.
    const prefs = signTestToken({ p: 'preferences', s: who.id });
    await callFunction(emu, 'preferences', { body: { token: prefs, lists: { newsletter: true } } });
    await callFunction(emu, 'preferences', {
      body: { token: prefs, lists: { newsletter: false } },
    });
    await callFunction(emu, 'unsubscribe', { body: { token, action: 'resubscribe' } });
    expect(await statuses(who)).toEqual({
      newsletter: 'unsubscribed',
      'product-updates': 'confirmed',
    });
  });

  it('refuses the undo for a blocklisted address with 409 and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed' }, 'blocklisted');
    const before = await snapshot(emu);
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token: tokenFor(who), action: 'resubscribe' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
    expect(res.body.error.message).toMatch(/blocked/);
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses an unknown action with 422', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token: tokenFor(who), action: 'delete' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid_input', field: 'action' });
  });
});

describe('tokens', () => {
  it('refuses forged, malformed, wrong-purpose and stale tokens with 400 and changes nothing', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const gone = await person({ newsletter: 'confirmed' });
    const goneToken = tokenFor(gone);
    await sql(emu, 'delete from public.subscribers where id = $1', [gone.id]);
    const bad = [
      signTestToken({ p: 'unsubscribe', s: who.id }, 'another-secret'),
      signTestToken({ p: 'preferences', s: who.id }),
      signTestToken({ p: 'confirm', s: who.id }),
      signTestToken({ p: 'unsubscribe', s: 'not-a-uuid' }),
      signTestToken({ p: 'unsubscribe', s: who.id, l: ['not-a-uuid'] }),
      signTestToken({ p: 'unsubscribe', s: who.id, l: 'all' }),
      `${tokenFor(who)}x`,
      'garbage',
      'a.b.c',
      goneToken,
    ];
    const before = await snapshot(emu);
    for (const token of bad) {
      const get = await callFunction(emu, 'unsubscribe', { query: { token } });
      expect(get.status, `GET ${token}`).toBe(400);
      expect(get.body.error).toEqual({ code: 'token_invalid', message: 'This link is not valid.' });
      expect((await oneClick(token)).status, `one-click ${token}`).toBe(400);
      for (const action of ['unsubscribe', 'resubscribe']) {
        const post = await callFunction(emu, 'unsubscribe', { body: { token, action } });
        expect(post.status, `${action} ${token}`).toBe(400);
        expect(post.body.error.code).toBe('token_invalid');
      }
    }
    const missing = await callFunction(emu, 'unsubscribe');
    expect(missing.status).toBe(400);
    expect(await snapshot(emu)).toBe(before);
  });
});

describe('HTTP', () => {
  it('answers the CORS preflight with 204', async () => {
    const res = await fetch(`${emu.url}/functions/v1/unsubscribe`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses other methods with 405', async () => {
    const res = await callFunction(emu, 'unsubscribe', { method: 'PUT', rawBody: '{}' });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a wrong content type, invalid JSON and a non-object with 422', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const token = tokenFor(who);
    const before = await snapshot(emu);
    const cases = [
      { rawBody: JSON.stringify({ token, action: 'unsubscribe' }), type: 'text/plain' },
      { rawBody: '{"token": ', type: 'application/json' },
      { rawBody: '["unsubscribe"]', type: 'application/json' },
    ];
    for (const { rawBody, type } of cases) {
      const res = await callFunction(emu, 'unsubscribe', {
        method: 'POST',
        rawBody,
        query: { token },
        headers: { 'Content-Type': type },
      });
      expect(res.status, rawBody).toBe(422);
      expect(res.body.error.code).toBe('invalid_input');
    }
    expect(await snapshot(emu)).toBe(before);
  });

  it('refuses a body over 16 KB with 413', async () => {
    const who = await person({ newsletter: 'confirmed' });
    const res = await callFunction(emu, 'unsubscribe', {
      body: { token: tokenFor(who), action: 'unsubscribe', pad: 'x'.repeat(17 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(await statuses(who)).toEqual({ newsletter: 'confirmed' });
  });
});
