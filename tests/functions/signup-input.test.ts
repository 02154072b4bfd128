// Unit tests of the signup functions' pure rules (the Deno files import nothing with Deno globals).
import { describe, expect, it } from 'vitest';
// The Deno files import their neighbours with `.ts` extensions, which this project's tsc refuses;
// vitest loads them as they are, so they are imported at run time and typed here by hand.
const deno = (path: string) =>
  import(/* @vite-ignore */ new URL(`../../supabase/functions/${path}`, import.meta.url).href);
type Body = Record<string, unknown>;
const { parseSubscribeInput, jsonbTextBytes } = (await deno('subscribe/input.ts')) as {
  parseSubscribeInput: (body: Body) => Body;
  jsonbTextBytes: (value: unknown) => number;
};
const { confirmPayload, referralUrl } = (await deno('confirm/payload.ts')) as {
  confirmPayload: (payload: { s: unknown; l?: unknown; n?: unknown }) => Body;
  referralUrl: (site: string, code: string, list: string) => string;
};
const { waitlistQuery } = (await deno('waitlist/query.ts')) as {
  waitlistQuery: (params: URLSearchParams) => Body | null;
};
const { parseInvite } = (await deno('invite-member/input.ts')) as {
  parseInvite: (body: Body) => Body;
};
const { isOwnerClaim } = (await deno('claim-owner/rule.ts')) as {
  isOwnerClaim: (
    user: { email?: string | null; email_confirmed_at?: string | null },
    owner: string,
  ) => boolean;
};

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string; field?: string }).code;
  }
  return 'ok';
};

describe('parseSubscribeInput', () => {
  it('normalises the address and fills the defaults', () => {
    expect(parseSubscribeInput({ email: '  Ada@Example.COM ' })).toEqual({
      email: 'ada@example.com',
      name: '',
      lists: null,
      ref: null,
      attributes: null,
      honeypot: false,
    });
  });

  it('keeps lists once each, a plausible referral code and attributes', () => {
    const input = parseSubscribeInput({
      email: 'a@example.com',
      name: '  Ada  ',
      lists: ['newsletter', 'newsletter', 'early-access'],
      ref: 'abc123',
      attributes: { city: 'London' },
    });
    expect(input).toMatchObject({
      name: 'Ada',
      lists: ['newsletter', 'early-access'],
      ref: 'abc123',
      attributes: { city: 'London' },
    });
  });

  it('ignores a referral code that cannot exist instead of refusing the signup', () => {
    expect(parseSubscribeInput({ email: 'a@example.com', ref: 'a b\u0000' }).ref).toBeNull();
  });

  it.each([
    [{ email: 'nope' }, 'invalid_email'],
    [{ email: `${'a'.repeat(65)}@example.com` }, 'invalid_email'],
    [{ email: ['a@example.com'] }, 'invalid_email'],
    [{ email: 'a@example.com', name: 'x'.repeat(101) }, 'invalid_input'],
    [{ email: 'a@example.com', name: 'tab\there' }, 'invalid_input'],
    [{ email: 'a@example.com', name: 5 }, 'invalid_input'],
    [{ email: 'a@example.com', lists: [] }, 'invalid_input'],
    [{ email: 'a@example.com', lists: [1] }, 'invalid_input'],
    [
      { email: 'a@example.com', lists: Array.from({ length: 21 }, (_, i) => `l${i}`) },
      'invalid_input',
    ],
    [{ email: 'a@example.com', lists: ['Bad Slug'] }, 'list_not_found'],
    [{ email: 'a@example.com', ref: 'r'.repeat(33) }, 'invalid_input'],
    [{ email: 'a@example.com', ref: 7 }, 'invalid_input'],
    [{ email: 'a@example.com', attributes: 'x' }, 'invalid_input'],
    [{ email: 'a@example.com', attributes: [] }, 'invalid_input'],
    [{ email: 'a@example.com', attributes: { k: 'nul\u0000' } }, 'invalid_input'],
  ])('refuses %j with %s', (body, expected) => {
    expect(code(() => parseSubscribeInput(body))).toBe(expected);
  });

  it('counts the name in characters, as SQL does: 100 emoji fit, 101 do not', () => {
    const emoji = (n: number) => '\u{1F600}'.repeat(n);
    expect(parseSubscribeInput({ email: 'a@example.com', name: emoji(60) }).name).toBe(emoji(60));
    expect(parseSubscribeInput({ email: 'a@example.com', name: emoji(100) }).name).toBe(emoji(100));
    expect(code(() => parseSubscribeInput({ email: 'a@example.com', name: emoji(101) }))).toBe(
      'invalid_input',
    );
  });

  it('refuses an unpaired UTF-16 surrogate in the name or attributes, naming the field', () => {
    const field = (body: Body) => {
      try {
        parseSubscribeInput({ email: 'a@example.com', ...body });
      } catch (error) {
        const { code, field } = error as { code?: string; field?: string };
        return `${code} ${field}`;
      }
      return 'ok';
    };
    for (const name of ['Ada \ud800', '\udc00', 'x\ud83d']) {
      expect(field({ name })).toBe('invalid_input name');
    }
    expect(field({ attributes: { city: 'Lon\ud800don' } })).toBe('invalid_input attributes');
    expect(field({ attributes: { tags: [{ k: '\udfff' }] } })).toBe('invalid_input attributes');
    expect(field({ attributes: { '\ud800': 1 } })).toBe('invalid_input attributes');
    // A surrogate pair is one character (an emoji) and fine.
    expect(field({ name: 'Ada \ud83d\ude00', attributes: { mood: '\ud83d\ude00' } })).toBe('ok');
  });

  it('sees the honeypot filled only when it holds something', () => {
    const honeypot = (website: unknown) =>
      parseSubscribeInput({ email: 'a@example.com', website }).honeypot;
    expect([undefined, null, '', '   ', false].map(honeypot)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['x', 'http://spam', 1, true, {}].map(honeypot)).toEqual([true, true, true, true, true]);
  });

  it('measures attributes as Postgres prints jsonb, so 4 KB means the same on both sides', () => {
    expect(jsonbTextBytes({ a: 1, b: [1, 'x'] })).toBe('{"a": 1, "b": [1, "x"]}'.length);
    const justFits = { k: 'v'.repeat(4096 - '{"k": ""}'.length) };
    expect(code(() => parseSubscribeInput({ email: 'a@example.com', attributes: justFits }))).toBe(
      'ok',
    );
    const over = { k: 'v'.repeat(4097 - '{"k": ""}'.length) };
    expect(code(() => parseSubscribeInput({ email: 'a@example.com', attributes: over }))).toBe(
      'invalid_input',
    );
  });
});

describe('confirmPayload', () => {
  const good = {
    s: '0b6f3f0e-1c1a-4a53-9d5c-7f1d6c9a2b10',
    l: ['6a4b3c2d-1e0f-4a1b-8c2d-3e4f5a6b7c8d'],
    n: '0123456789abcdef0123456789abcdef',
  };
  it('accepts a complete payload', () => {
    expect(confirmPayload(good)).toEqual({
      subscriberId: good.s,
      listIds: good.l,
      nonce: good.n,
    });
  });
  it.each([
    { ...good, s: 'x' },
    { ...good, l: [] },
    { ...good, l: ['x'] },
    { ...good, l: undefined },
    { ...good, n: undefined },
    { ...good, n: 'short' },
  ])('refuses %j as token_invalid', (payload) => {
    expect(code(() => confirmPayload(payload))).toBe('token_invalid');
  });
  it('builds the referral link with the code and list escaped', () => {
    expect(referralUrl('https://x.test', 'ab c', 'early-access')).toBe(
      'https://x.test/?ref=ab%20c&list=early-access',
    );
  });
});

describe('waitlistQuery', () => {
  it('reads a code and an optional list', () => {
    expect(waitlistQuery(new URLSearchParams('code=abc123'))).toEqual({
      code: 'abc123',
      list: null,
    });
    expect(waitlistQuery(new URLSearchParams('code=abc&list=early-access'))).toEqual({
      code: 'abc',
      list: 'early-access',
    });
  });
  it.each(['', 'code=', "code=a'b", `code=${'c'.repeat(33)}`, 'code=abc&list=Bad'])(
    'answers null for %s',
    (query) => {
      expect(waitlistQuery(new URLSearchParams(query))).toBeNull();
    },
  );
});

describe('parseInvite and isOwnerClaim', () => {
  it('takes an address and a role', () => {
    expect(parseInvite({ email: ' New@Example.com', role: 'editor' })).toEqual({
      email: 'new@example.com',
      role: 'editor',
    });
    expect(code(() => parseInvite({ email: 'x', role: 'editor' }))).toBe('invalid_email');
    expect(code(() => parseInvite({ email: 'a@example.com', role: 'root' }))).toBe('invalid_input');
  });
  it('lets only the confirmed owner address claim', () => {
    const at = '2026-01-01T00:00:00Z';
    expect(
      isOwnerClaim({ email: 'Owner@Example.com', email_confirmed_at: at }, 'owner@example.com'),
    ).toBe(true);
    expect(
      isOwnerClaim({ email: 'owner@example.com', email_confirmed_at: null }, 'owner@example.com'),
    ).toBe(false);
    expect(
      isOwnerClaim({ email: 'other@example.com', email_confirmed_at: at }, 'owner@example.com'),
    ).toBe(false);
    expect(isOwnerClaim({ email: '', email_confirmed_at: at }, '')).toBe(false);
  });
});
