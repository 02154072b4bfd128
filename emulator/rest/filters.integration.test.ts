// REST conformance, filters: every operator the client emits, negation, any/all, logic trees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());

async function ids(query: string): Promise<number[]> {
  const order = query.includes('order=') ? '' : 'order=id&';
  const res = await f.rest(`/books?select=id&${order}${query}`);
  const body = (await res.json()) as Array<{ id: number }>;
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body.map((r) => r.id);
}

// One row per filter the client can emit (contract §1.2): query string → ids of matching books.
const FILTERS: Array<[string, number[]]> = [
  ['id=eq.2', [2]],
  ['id=neq.2', [1, 3, 4]],
  ['pages=gt.120', [3, 4]],
  ['pages=gte.120', [1, 3, 4]],
  ['pages=lt.120', [2]],
  ['pages=lte.120', [1, 2]],
  ['title=like.*o*', [1, 2, 4]],
  ['title=ilike.c*', [3]],
  ['title=match.^[NF]', [1, 2]],
  ['title=imatch.^s', [4]],
  ['note=is.null', [1, 3]],
  ['note=not.is.null', [2, 4]],
  ['note=isdistinct.classic', [1, 3, 4]],
  ['id=in.(1,3)', [1, 3]],
  ['note=in.("a,b (c)",classic)', [2, 4]],
  ['id=not.in.(1,3)', [2, 4]],
  ['tags=cs.{love}', [3]],
  ['tags=cd.{poetry,memoir,x}', [2, 4]],
  ['tags=ov.{math,memoir}', [1, 4]],
  ['meta=cs.{"lang":"fr"}', [3]],
  ['period=sl.[25,26)', [1, 2]],
  ['period=sr.[21,22)', [3]],
  // nxl: starts at 10 or later (&>); nxr: ends by 21 (&<).
  ['period=nxl.[10,11)', [3]],
  ['period=nxr.[20,21)', [1, 2]],
  ['period=adj.[40,50)', [3]],
  ['period=ov.[8,9)', [1, 2]],
  ['body=fts.frog', [2]],
  ['body=fts(english).engines', [1]],
  ['body=plfts.old pond', [2]],
  ['body=phfts(english).old silent pond', [2]],
  ['body=wfts.novel -courtesan', []],
  ['body=wfts."ageing courtesan"', [3]],
  ['title=like(any).{N*,S*}', [1, 4]],
  ['title=ilike(all).{*o*,*e*}', [1]],
  ['id=eq(any).{2,4}', [2, 4]],
  ['meta->>lang=eq.ja', [2]],
  ['meta->stars=gt.3', [1, 2]],
  ['published=gte.1900-01-01', [3, 4]],
  ['price=lt.10', [1, 2]],
  ['or=(id.eq.1,pages.gt.160)', [1, 3]],
  ['or=(id.eq.1,and(pages.gt.100,note.is.null))', [1, 3]],
  ['and=(pages.gt.100,or(id.eq.4,title.eq.Notes))', [1, 4]],
  ['not.or=(id.eq.1,id.eq.2)', [3, 4]],
  ['or=(note.eq."a,b (c)",tags.cs.{poetry})', [2, 4]],
  ['or=(id.in.(1,2),title.not.eq.Sido)&id=neq.3', [1, 2]],
];

describe('filters', () => {
  it.each(FILTERS)('%s', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('answers PGRST100 naming an unknown operator', async () => {
    const res = await f.rest('/books?id=foo.1');
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('PGRST100');
    expect(body.message).toContain('id=foo.1'.slice(3));
    expect(res.headers.get('proxy-status')).toBe('PostgREST; error=PGRST100');
  });

  it('passes supabase-js filter builders through', async () => {
    const { data, error } = await f.anon
      .from('books')
      .select('id')
      .in('id', [1, 2, 3])
      .not('note', 'is', null)
      .or('pages.lt.50,title.eq.Cheri')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }]);
    const { data: fts } = await f.anon.from('books').select('id').textSearch('body', 'frog & pond');
    expect(fts).toEqual([{ id: 2 }]);
  });
});
