// What an unsubscribe token can do (issue 20 finding 3): unsubscribe and undo that, nothing more.
// The List-Unsubscribe header, which the mailbox provider reads, carries only that token and its
// answers lead nowhere else; the footer's unsubscribe link carries the preferences token too, for
// the page's "Manage preferences". No kind of token verifies as another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  type CaughtMail,
  createSubscriber,
  linkIn,
  signTestToken,
  startFunctionsEmulator,
  waitForMail,
} from './kit';

let emu: RunningEmulator;
let mail: CaughtMail;
let email: string;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  email = `scope-${Date.now()}@example.com`;
  const res = await callFunction(emu, 'subscribe', { body: { email, lists: ['early-access'] } });
  expect(res.status).toBe(200);
  mail = (await waitForMail(emu, email))[0]!;
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

/** The one-click URL of the message's List-Unsubscribe header, from its raw source. */
async function listUnsubscribeUrl(message: CaughtMail): Promise<URL> {
  const source = await (await fetch(`${emu.mail!.url}/api/email/${message.id}/source`)).text();
  const head = source.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const match = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(head);
  if (!match) throw new Error('no List-Unsubscribe header');
  return new URL(match[1]!);
}

/** Every string anywhere in a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

describe('the List-Unsubscribe token', () => {
  it('carries only the one-click token', async () => {
    const url = await listUnsubscribeUrl(mail);
    expect([...url.searchParams.keys()]).toEqual(['token']);
  });

  it('unsubscribes and undoes that, and no answer leads to preferences', async () => {
    const token = (await listUnsubscribeUrl(mail)).searchParams.get('token')!;
    const answers = [];
    for (const action of ['unsubscribe', 'resubscribe', 'unsubscribe', 'resubscribe']) {
      const res = await callFunction(emu, 'unsubscribe', { body: { token, action } });
      expect([action, res.status]).toEqual([action, 200]);
      expect(Object.keys(res.body).sort()).toEqual(['email', 'lists']);
      answers.push(res.body);
    }
    answers.push((await callFunction(emu, 'unsubscribe', { query: { token } })).body);
    // Nothing in any answer opens the preferences (export, delete) of this subscriber.
    for (const text of answers.flatMap(stringsIn)) {
      expect(text).not.toMatch(/preferences/);
    }
    for (const candidate of [token, ...answers.flatMap(stringsIn)]) {
      const prefs = await callFunction(emu, 'preferences', {
        body: { token: candidate, action: 'export' },
      });
      expect(prefs.status).toBe(400);
    }
  });
});

describe('the footer links', () => {
  it("the unsubscribe link carries the preferences link's token for the page", () => {
    const unsubscribe = linkIn(mail, '/unsubscribe/');
    const preferences = linkIn(mail, '/preferences/');
    expect(unsubscribe.searchParams.get('preferences')).toBe(preferences.searchParams.get('token'));
    expect(unsubscribe.searchParams.get('token')).not.toBe(preferences.searchParams.get('token'));
  });

  it('the preferences token opens preferences; the unsubscribe token does not', async () => {
    const unsubscribe = linkIn(mail, '/unsubscribe/');
    const prefs = await callFunction(emu, 'preferences', {
      query: { token: unsubscribe.searchParams.get('preferences')! },
    });
    expect([prefs.status, prefs.body.email]).toEqual([200, email]);
    const refused = await callFunction(emu, 'preferences', {
      query: { token: unsubscribe.searchParams.get('token')! },
    });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'token_invalid']);
  });
});

describe('token kinds', () => {
  it('never verify as one another at any function', async () => {
    const who = await createSubscriber(emu, { newsletter: 'confirmed' }, { tag: 'kinds' });
    const kinds = ['confirm', 'unsubscribe', 'preferences', 'open', 'click'] as const;
    const tokenOf = (p: string) =>
      signTestToken({ p, s: who.id, c: undefined, n: '0'.repeat(32), l: undefined });
    const uses: Record<string, (token: string) => Promise<{ status: number }>> = {
      unsubscribe: (token) => callFunction(emu, 'unsubscribe', { query: { token } }),
      preferences: (token) => callFunction(emu, 'preferences', { query: { token } }),
      confirm: (token) => callFunction(emu, 'confirm', { body: { token } }),
      open: (t) => callFunction(emu, 'track', { query: { t } }),
    };
    for (const [use, call] of Object.entries(uses)) {
      for (const kind of kinds) {
        if (kind === use) continue;
        const res = await call(tokenOf(kind));
        expect([use, kind, res.status]).toEqual([use, kind, 400]);
      }
    }
    // The right kind works where it belongs (so the 400s above are about the kind).
    expect((await uses.unsubscribe!(tokenOf('unsubscribe'))).status).toBe(200);
    expect((await uses.preferences!(tokenOf('preferences'))).status).toBe(200);
  });
});
