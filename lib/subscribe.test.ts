// Unit tests for the subscribe flow's rules: input checks and the mapping of function answers.
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { MESSAGES, nameLength, prepareSubscribe, readSubscribeResult } from './subscribe';

function httpError(status: number, body: string, contentType = 'application/json') {
  const response = new Response(body, { status, headers: { 'Content-Type': contentType } });
  return { data: null, error: new FunctionsHttpError(response), response };
}

describe('prepareSubscribe', () => {
  it('normalises the email and trims the name', () => {
    expect(prepareSubscribe({ email: ' Ada@Example.com ', name: '  Ada Lovelace ' })).toEqual({
      ok: true,
      body: { email: 'ada@example.com', name: 'Ada Lovelace' },
    });
  });

  it('leaves an empty name out of the body', () => {
    expect(prepareSubscribe({ email: 'ada@example.com', name: '   ' })).toEqual({
      ok: true,
      body: { email: 'ada@example.com' },
    });
  });

  it('reports an invalid email on the email field with the catalogue message', () => {
    expect(prepareSubscribe({ email: 'ada@example', name: 'Ada' })).toEqual({
      ok: false,
      code: 'invalid_email',
      field: 'email',
      message: 'Enter a valid email address.',
    });
  });

  it('limits names to 100 characters without control characters', () => {
    expect(prepareSubscribe({ email: 'a@b.co', name: 'x'.repeat(100) }).ok).toBe(true);
    expect(prepareSubscribe({ email: 'a@b.co', name: 'x'.repeat(101) })).toMatchObject({
      ok: false,
      code: 'invalid_input',
      field: 'name',
      message: MESSAGES.name_too_long,
    });
    for (const name of ['Ada\nLovelace', 'Ada\u0007', 'Ada\u0085']) {
      expect(prepareSubscribe({ email: 'a@b.co', name })).toMatchObject({
        field: 'name',
        message: MESSAGES.name_control,
      });
    }
  });

  it('counts a name in characters, as SQL does: 100 emoji fit, 101 do not', () => {
    const emoji = (n: number) => '\u{1F600}'.repeat(n);
    expect(nameLength(emoji(60))).toBe(60);
    expect(nameLength('Zoë')).toBe(3);
    expect(prepareSubscribe({ email: 'a@b.co', name: emoji(60) }).ok).toBe(true);
    expect(prepareSubscribe({ email: 'a@b.co', name: emoji(100) }).ok).toBe(true);
    expect(prepareSubscribe({ email: 'a@b.co', name: emoji(101) })).toMatchObject({
      field: 'name',
      message: MESSAGES.name_too_long,
    });
  });
});

describe('readSubscribeResult', () => {
  it('reports success only for the documented 200 answers', async () => {
    for (const status of ['pending', 'confirmed'] as const) {
      expect(await readSubscribeResult({ data: { status }, error: null })).toEqual({
        ok: true,
        status,
      });
    }
    expect(await readSubscribeResult({ data: 'OK', error: null })).toMatchObject({
      ok: false,
      code: 'internal',
    });
    expect(
      await readSubscribeResult({ data: { status: 'subscribed' }, error: null }),
    ).toMatchObject({ ok: false, code: 'internal' });
  });

  it('shows the catalogue message of an error answer, on the email field for invalid_email', async () => {
    const invalid = httpError(
      422,
      JSON.stringify({ error: { code: 'invalid_email', message: 'Enter a valid email address.' } }),
    );
    expect(await readSubscribeResult(invalid)).toEqual({
      ok: false,
      code: 'invalid_email',
      field: 'email',
      message: 'Enter a valid email address.',
    });
    const limited = httpError(
      429,
      JSON.stringify({
        error: { code: 'rate_limited', message: 'Too many attempts. Try again in a minute.' },
      }),
    );
    expect(await readSubscribeResult(limited)).toEqual({
      ok: false,
      code: 'rate_limited',
      field: null,
      message: 'Too many attempts. Try again in a minute.',
    });
  });

  it('says signups are not open when the function does not exist (404 without our shape)', async () => {
    expect(await readSubscribeResult(httpError(404, 'Function not found', 'text/plain'))).toEqual({
      ok: false,
      code: 'not_open',
      field: null,
      message: 'Signups are not open yet.',
    });
    const hosted = httpError(
      404,
      '{"code":"NOT_FOUND","message":"Requested function was not found"}',
    );
    expect(await readSubscribeResult(hosted)).toMatchObject({ code: 'not_open' });
  });

  it('keeps a catalogue 404 (e.g. list_not_found) as its own message', async () => {
    const res = httpError(
      404,
      JSON.stringify({ error: { code: 'list_not_found', message: 'That list does not exist.' } }),
    );
    expect(await readSubscribeResult(res)).toMatchObject({
      code: 'list_not_found',
      message: 'That list does not exist.',
    });
  });

  it('never leaks platform errors: 401/500/relay become the generic message', async () => {
    for (const result of [
      httpError(401, '{"code":401,"message":"Invalid JWT"}'),
      httpError(500, '{"code":"WORKER_ERROR","message":"boom at line 3"}'),
      {
        data: null,
        error: new FunctionsRelayError(new Response('relay', { status: 502 })),
      },
    ]) {
      expect(await readSubscribeResult(result)).toEqual({
        ok: false,
        code: 'internal',
        field: null,
        message: 'Something went wrong. Nothing was changed.',
      });
    }
  });

  it('tells the visitor when the server could not be reached (network or CORS failure)', async () => {
    const result = { data: null, error: new FunctionsFetchError(new TypeError('Failed to fetch')) };
    expect(await readSubscribeResult(result)).toMatchObject({
      code: 'unreachable',
      message: MESSAGES.unreachable,
    });
  });
});

describe('prepareSubscribe with lists, referral and honeypot', () => {
  it('sends the chosen lists once each, the referral code and a filled honeypot', () => {
    expect(
      prepareSubscribe({
        email: 'a@b.co',
        lists: ['newsletter', 'early-access', 'newsletter'],
        ref: ' abc123 ',
        website: 'http://spam.example',
      }),
    ).toEqual({
      ok: true,
      body: {
        email: 'a@b.co',
        lists: ['newsletter', 'early-access'],
        ref: 'abc123',
        website: 'http://spam.example',
      },
    });
  });

  it('asks for a list when every box is unchecked, and leaves lists out when not given', () => {
    expect(prepareSubscribe({ email: 'a@b.co', lists: [] })).toMatchObject({
      ok: false,
      field: 'lists',
      message: MESSAGES.no_lists,
    });
    expect(prepareSubscribe({ email: 'a@b.co', ref: '  ', website: '' })).toEqual({
      ok: true,
      body: { email: 'a@b.co' },
    });
  });

  it('shows list_not_found on the lists', async () => {
    const res = httpError(
      404,
      JSON.stringify({ error: { code: 'list_not_found', message: 'That list does not exist.' } }),
    );
    expect(await readSubscribeResult(res)).toMatchObject({ field: 'lists' });
  });
});
