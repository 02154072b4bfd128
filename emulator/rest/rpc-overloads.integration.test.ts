// REST conformance, RPC overloads as PostgREST resolves them: unnamed parameters, PGRST203, max-affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest, startRestFixture, type RestFixture } from './test-fixtures.js';

const FUNCTIONS = `
create function public.unnamed_json(json) returns json language sql immutable as 'select $1';
create function public.unnamed_int(int) returns int language sql immutable as 'select $1';
create function public.over_unnamed() returns text language sql immutable as $$select 'none'$$;
create function public.over_unnamed(json) returns text language sql immutable as $$select 'json'$$;
create function public.over_unnamed(text) returns text language sql immutable as $$select 'text'$$;
create function public.over_unnamed(x int, y int) returns int language sql immutable as 'select x + y';
create function public.json_or_jsonb(json) returns text language sql immutable as $$select 'json'$$;
create function public.json_or_jsonb(jsonb) returns text language sql immutable as $$select 'jsonb'$$;
create function public.no_args_or_default() returns int language sql immutable as 'select 0';
create function public.no_args_or_default(a int default 1) returns int language sql immutable as 'select a';
create function public.same_args(arg text, num integer default 0) returns text language sql immutable as $$select 'text'$$;
create function public.same_args(arg xml) returns text language sql immutable as $$select 'xml'$$;
create function public.same_args(arg integer) returns text language sql immutable as $$select 'int'$$;
create table public.rpc_log (id serial primary key, n int);
grant select, insert on public.rpc_log to anon;
grant usage on sequence public.rpc_log_id_seq to anon;
create function public.log_rows(n int) returns setof public.rpc_log language sql volatile as
  'insert into public.rpc_log (n) select g from generate_series(1, n) g returning *';
create function public.log_one() returns int language sql volatile as
  'insert into public.rpc_log (n) values (0) returning id';
grant execute on all functions in schema public to anon;
`;

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture(FUNCTIONS);
}, 180_000);
afterAll(() => f?.emu.stop());

const post = (fn: string, body: unknown, prefer?: string) =>
  f.rest(`/rpc/${fn}`, { method: 'POST', ...jsonRequest(body, prefer) });
const answer = async (res: Response) => [res.status, await res.json()];
const ambiguous = (candidates: string) => ({
  code: 'PGRST203',
  message: `Could not choose the best candidate function between: ${candidates}`,
  details: null,
  hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
});

describe('rpc: one unnamed parameter', () => {
  it('passes the whole body to it, {"": value} included', async () => {
    expect(await answer(await post('unnamed_json', { '': 1 }))).toEqual([200, { '': 1 }]);
    expect(await answer(await post('unnamed_json', { a: [1] }))).toEqual([200, { a: [1] }]);
  });

  it('does not find a function whose unnamed parameter no body can be (PGRST202)', async () => {
    const [status, body] = await answer(await post('unnamed_int', { '': 1 }));
    expect([status, body.code]).toEqual([404, 'PGRST202']);
  });

  it('resolves overloads that differ in unnamed parameters as PostgREST does', async () => {
    expect(await answer(await post('over_unnamed', {}))).toEqual([200, 'none']);
    expect(await answer(await post('over_unnamed', { x: 1, y: 2 }))).toEqual([200, 3]);
    // No named match: the single unnamed json parameter takes the body.
    expect(await answer(await post('over_unnamed', { a: 1 }))).toEqual([200, 'json']);
    // "" names the unnamed json and text parameters alike.
    expect(await answer(await post('over_unnamed', { '': 1 }))).toEqual([
      300,
      ambiguous('public.over_unnamed( => json), public.over_unnamed( => text)'),
    ]);
    expect(await answer(await post('json_or_jsonb', { A: 1 }))).toEqual([
      300,
      ambiguous('public.json_or_jsonb( => json), public.json_or_jsonb( => jsonb)'),
    ]);
  });
});

describe('rpc: ambiguous overloads', () => {
  it('answers PGRST203 for a call without arguments that two overloads accept, not 42725', async () => {
    expect(await answer(await f.rest('/rpc/no_args_or_default'))).toEqual([
      300,
      ambiguous('public.no_args_or_default(), public.no_args_or_default(a => integer)'),
    ]);
    expect(await answer(await f.rest('/rpc/no_args_or_default?a=5'))).toEqual([200, 5]);
  });

  it("lists the candidates in PostgREST's order, fewest parameters first", async () => {
    expect(await answer(await f.rest('/rpc/same_args?arg=value'))).toEqual([
      300,
      ambiguous(
        'public.same_args(arg => integer), public.same_args(arg => xml), public.same_args(arg => text, num => integer)',
      ),
    ]);
    expect(await answer(await f.rest('/rpc/same_args?arg=value&num=1'))).toEqual([200, 'text']);
  });
});

describe('rpc: Prefer handling=strict, max-affected', () => {
  const logged = async () =>
    (await f.emu.db.query<{ n: number }>('select count(*)::int as n from public.rpc_log')).rows[0]!
      .n;

  it('refuses a set of more rows than allowed (PGRST124) and rolls the call back', async () => {
    const before = await logged();
    expect(
      await answer(await post('log_rows', { n: 3 }, 'handling=strict, max-affected=2')),
    ).toEqual([
      400,
      {
        code: 'PGRST124',
        message: 'Query result exceeds max-affected preference constraint',
        details: 'The query affects 3 rows',
        hint: null,
      },
    ]);
    expect(await logged()).toBe(before);
    const ok = await post('log_rows', { n: 2 }, 'handling=strict, max-affected=2');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveLength(2);
    expect(ok.headers.get('preference-applied')).toBe('handling=strict, max-affected=2');
    // Lenient handling ignores the cap, as upstream.
    expect((await post('log_rows', { n: 3 }, 'max-affected=2')).status).toBe(200);
    expect(await logged()).toBe(before + 5);
  });

  it('refuses it for a function that does not return a set (PGRST128)', async () => {
    const before = await logged();
    expect(await answer(await post('log_one', {}, 'handling=strict, max-affected=1'))).toEqual([
      400,
      {
        code: 'PGRST128',
        message:
          'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
        details: null,
        hint: null,
      },
    ]);
    expect(await logged()).toBe(before);
  });
});
