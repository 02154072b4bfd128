// REST conformance, RPC and the schema cache: calls, results, errors, profiles, reload after DDL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());

describe('rpc', () => {
  it('hands Postgres the JSON body unchanged: numbers keep digits a double would lose', async () => {
    const post = (path: string, body: string) =>
      f.rest(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    const pi = '3.14159265358979323846264338327950288';
    let res = await post('/rpc/digits', `{"n": ${pi}}`);
    expect([res.status, await res.json()]).toEqual([200, pi]);
    // The whole body of a single unnamed json/jsonb parameter, too.
    res = await post('/rpc/echo', '{"big": 123456789012345678901234567890}');
    expect([res.status, await res.text()]).toEqual([
      200,
      '{"big": 123456789012345678901234567890}',
    ]);
  });

  it('calls with named arguments by POST and by GET', async () => {
    expect(await f.anon.rpc('add', { a: 2, b: 3 })).toMatchObject({ data: 5, status: 200 });
    const res = await f.rest('/rpc/add?a=20&b=22');
    expect([res.status, await res.json()]).toEqual([200, 42]);
  });

  it('picks the overload by argument names', async () => {
    expect((await f.anon.rpc('greet', { name: 'Ada' })).data).toBe('hello Ada');
    expect((await f.anon.rpc('greet', { name: 'Ada', greeting: 'bonjour' })).data).toBe(
      'bonjour Ada',
    );
  });

  it('returns arrays for SETOF (with filters and select), objects for a row type, 204 for void', async () => {
    const { data } = await f.anon
      .rpc('books_by', { author: 3 })
      .select('title')
      .order('id', { ascending: false });
    expect(data).toEqual([{ title: 'Sido' }, { title: 'Cheri' }]);
    const { data: first } = await f.anon.rpc('first_book').select('id,title');
    expect(first).toEqual({ id: 1, title: 'Notes' });
    expect((await f.anon.rpc('series', { n: 3 })).data).toEqual([1, 2, 3]);
    const res = await f.rest('/rpc/noop', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('reads a set of scalars as rows of one column pgrst_scalar, as PostgREST does', async () => {
    const byName = await f.rest('/rpc/series?n=3&order=series.desc');
    expect([byName.status, (await byName.json()).code]).toEqual([400, '42703']);
    const filtered = await f.rest('/rpc/series?n=3&pgrst_scalar=gt.1&order=pgrst_scalar.desc');
    expect([filtered.status, await filtered.json()]).toEqual([200, [3, 2]]);
    const csv = await f.rest('/rpc/series?n=2', { headers: { Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe('pgrst_scalar\n1\n2');
    const one = await f.rest('/rpc/series?n=1', {
      headers: { Accept: 'application/vnd.pgrst.object+json' },
    });
    expect([one.status, await one.json()]).toEqual([200, { pgrst_scalar: 1 }]);
    const { data, count } = await f.anon
      .rpc('series', { n: 5 }, { count: 'exact' })
      .gte('pgrst_scalar', 2)
      .range(0, 1);
    expect([data, count]).toEqual([[2, 3], 4]);
  });

  it('sends Content-Range for a single value or void, and Preference-Applied', async () => {
    const scalar = await f.rest('/rpc/add?a=1&b=2', { headers: { Prefer: 'count=exact' } });
    expect([scalar.headers.get('content-range'), scalar.headers.get('preference-applied')]).toEqual(
      ['0-0/1', 'count=exact'],
    );
    const row = await f.rest('/rpc/first_book');
    expect(row.headers.get('content-range')).toBe('0-0/*');
    const none = await f.rest('/rpc/noop', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect([none.status, none.headers.get('content-range')]).toEqual([204, '0-0/*']);
  });

  it('passes the whole body to a single unnamed json parameter', async () => {
    expect((await f.anon.rpc('echo', { any: ['thing', 1] })).data).toEqual({ any: ['thing', 1] });
  });

  it('maps raised errors: P0001 → 400, PT418 → 418', async () => {
    const { error, status } = await f.anon.rpc('fail', { msg: 'nope' });
    expect(status).toBe(400);
    expect(error).toEqual({ code: 'P0001', message: 'nope', details: null, hint: 'from fail()' });
    const { status: teapot, error: e2 } = await f.anon.rpc('teapot');
    expect([teapot, e2?.message]).toEqual([418, 'I am a teapot']);
  });

  it('answers 404 PGRST202 for an unknown function or arguments', async () => {
    const { error, status } = await f.anon.rpc('add', { a: 1, c: 2 });
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST202');
    expect(error?.message).toBe('Could not find the function public.add(a, c) in the schema cache');
  });

  it('runs GET in a read-only transaction (405 for a volatile write)', async () => {
    const res = await f.rest('/rpc/add_item?name=x');
    expect(res.status).toBe(405);
    expect((await res.json()).code).toBe('25006');
    expect((await f.service.rpc('add_item', { name: 'x' })).status).toBe(200);
  });
});

describe('rpc responses shaped by the function and by Accept', () => {
  const tagged = (args: { body: string; headers: string; status: string }, accept?: string) =>
    f.rest('/rpc/tagged', {
      method: 'POST',
      body: JSON.stringify(args),
      headers: { 'Content-Type': 'application/json', ...(accept ? { Accept: accept } : {}) },
    });

  it('answers a "text/plain" function as it is with Accept: text/plain, not as a JSON string', async () => {
    const body = 'a,"b"\r\nc\u00e9\n';
    const res = await tagged({ body, headers: '', status: '' }, 'text/plain');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(body);
    const json = await tagged({ body, headers: '', status: '' });
    expect(await json.json()).toBe(body);
  });

  it('refuses text/plain for a plain text function and for rows: 406 PGRST107', async () => {
    // PostgREST 12+ has no builtin text/plain: only a function returning the domain is its handler.
    for (const path of ['/rpc/greet?name=Ada', '/rpc/series?n=2', '/books']) {
      const res = await f.rest(path, { headers: { Accept: 'text/plain' } });
      expect(res.status).toBe(406);
      expect(await res.json()).toMatchObject({
        code: 'PGRST107',
        message: 'None of these media types are available: text/plain',
      });
    }
    // The first acceptable type wins: JSON before the function's own type.
    const json = await tagged(
      { body: 'x', headers: '', status: '' },
      'application/json, text/plain',
    );
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await json.json()).toBe('x');
  });

  it('refuses a binary handler function with 501 PGRST501, and still answers it as JSON', async () => {
    const res = await f.rest('/rpc/raw_bytes', { headers: { Accept: 'application/octet-stream' } });
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ code: 'PGRST501' });
    const json = await f.rest('/rpc/raw_bytes');
    expect(json.status).toBe(200);
    expect(await json.json()).toBe('\\x00ff');
  });

  it('adds the headers and status the function set in response.headers and response.status', async () => {
    const res = await tagged(
      {
        body: 'made',
        headers: '[{"X-Rows": "5000"}, {"Content-Type": "text/csv"}]',
        status: '201',
      },
      'text/plain',
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('x-rows')).toBe('5000');
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(await res.text()).toBe('made');
  });

  it('answers 500 PGRST111 and PGRST112 for settings that are not headers or a status', async () => {
    let res = await tagged({ body: 'x', headers: '{"X-Rows": "1"}', status: '' });
    expect([res.status, (await res.json()).code]).toEqual([500, 'PGRST111']);
    res = await tagged({ body: 'x', headers: '[{"X-Rows": 1}]', status: '' });
    expect([res.status, (await res.json()).code]).toEqual([500, 'PGRST111']);
    res = await tagged({ body: 'x', headers: '', status: 'teapot' });
    expect([res.status, (await res.json()).code]).toEqual([500, 'PGRST112']);
  });
});

describe('schema cache and profiles', () => {
  it('answers 404 PGRST205 for an unknown table', async () => {
    const res = await f.rest('/nowhere');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'PGRST205',
      message: "Could not find the table 'public.nowhere' in the schema cache",
      details: null,
      hint: null,
    });
  });

  it('sees a table created after start (NOTIFY pgrst) and columns added by plain DDL', async () => {
    await f.emu.db.exec(`
      create table public.late (id int primary key, label text);
      grant select, insert on public.late to anon;
      notify pgrst, 'reload schema';`);
    const { error, status } = await f.anon.from('late').insert({ id: 1, label: 'hi' });
    expect([error, status]).toEqual([null, 201]);
    await f.emu.db.exec('alter table public.late add column extra int');
    const { error: e2 } = await f.anon.from('late').insert({ id: 2, extra: 7 });
    expect(e2).toBeNull();
    const { data } = await f.anon.from('late').select('id, extra').order('id');
    expect(data).toEqual([
      { id: 1, extra: null },
      { id: 2, extra: 7 },
    ]);
  });

  it('prepares queries afresh after a schema reload, so a changed column type is seen', async () => {
    await f.emu.db.exec(`
      create table public.retyped (id int primary key, code int);
      insert into public.retyped values (1, 5);
      grant select on public.retyped to anon;
      notify pgrst, 'reload schema';`);
    const codes = async (code: string) => {
      const res = await f.rest(`/retyped?select=id&code=eq.${code}`);
      return [res.status, await res.json()];
    };
    // Reloads follow their NOTIFY: wait for each to be done.
    const settled = async (code: string) => {
      let answer: unknown[] = [];
      for (let i = 0; i < 50 && answer[0] !== 200; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        answer = await codes(code);
      }
      return answer;
    };
    expect(await settled('5')).toEqual([200, [{ id: 1 }]]);
    // The same text again and again: prepared, its parameter typed int.
    for (let i = 0; i < 6; i++) expect(await codes('5')).toEqual([200, [{ id: 1 }]]);
    await f.emu.db.exec(`
      alter table public.retyped alter column code type text;
      update public.retyped set code = 'x5';
      notify pgrst, 'reload schema';`);
    // Once the reload is done the same text is prepared again, its parameter typed text.
    expect(await settled('x5')).toEqual([200, [{ id: 1 }]]);
  });

  it('answers 406 PGRST106 for a schema that is not exposed', async () => {
    const { error, status } = await f.anon.schema('storage').from('buckets').select();
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: storage' });
  });

  it('describes tables and functions in a minimal OpenAPI document', async () => {
    const res = await f.rest('/', { headers: { Accept: 'application/openapi+json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/openapi+json; charset=utf-8');
    const doc = await res.json();
    expect(doc.swagger).toBe('2.0');
    expect(doc.paths['/books'].get).toBeDefined();
    expect(doc.paths['/rpc/add'].post).toBeDefined();
    expect(doc.definitions.books.properties.id).toMatchObject({
      type: 'integer',
      format: 'integer',
    });
    expect(doc.definitions.books.required).toEqual(['id', 'title']);
    expect(doc.definitions.books.properties.tags).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
  });
});
