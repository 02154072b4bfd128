// REST conformance, reads: select grammar, embeds, order/paging, counts, single and media types.
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
describe('select grammar', () => {
  it('renders columns, aliases, casts and JSON paths as Postgres does', async () => {
    const res = await f.rest(
      '/books?select=id,name:title,price,p:pages::text,lang:meta->>lang,meta->tags,published&id=eq.1',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual([
      {
        id: 1,
        name: 'Notes',
        price: 9.99,
        p: '120',
        lang: 'en',
        tags: ['a'],
        published: '1843-01-01',
      },
    ]);
  });

  it('selects, filters and orders computed fields (functions of the row type)', async () => {
    const res = await f.rest('/books?select=id,shout&shout=like.*O*&order=shout.desc');
    expect(await res.json()).toEqual([
      { id: 4, shout: 'SIDO' },
      { id: 1, shout: 'NOTES' },
      { id: 2, shout: 'FROG POND' },
    ]);
    const { data } = await f.anon.from('authors').select('books(loud:shout)').eq('id', 2);
    expect(data).toEqual([{ books: [{ loud: 'FROG POND' }] }]);
  });

  it('embeds computed relationships (functions from a row to rows)', async () => {
    const { data } = await f.anon
      .from('authors')
      .select('name, same_country_authors(name)')
      .in('id', [1, 2])
      .order('id');
    expect(data).toEqual([
      { name: 'Ada', same_country_authors: [{ name: 'Colette' }] },
      { name: 'Basho', same_country_authors: [] },
    ]);
  });

  it('embeds to-one as an object (or null) and to-many as an array', async () => {
    const { data, error } = await f.anon
      .from('authors')
      .select('name, country:countries(name), books(title), profiles(bio)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        name: 'Ada',
        country: { name: 'France' },
        books: [{ title: 'Notes' }],
        profiles: { bio: 'First programmer' },
      },
      {
        name: 'Basho',
        country: { name: 'Japan' },
        books: [{ title: 'Frog Pond' }],
        profiles: null,
      },
      {
        name: 'Colette',
        country: { name: 'France' },
        books: [{ title: 'Cheri' }, { title: 'Sido' }],
        profiles: null,
      },
      { name: 'Nobody', country: null, books: [], profiles: null },
    ]);
  });

  it('counts embedded rows with rel(count), as Postgres functional notation does upstream', async () => {
    const { data } = await f.anon.from('authors').select('name, books(count)').order('id');
    expect(data).toEqual([
      { name: 'Ada', books: [{ count: 1 }] },
      { name: 'Basho', books: [{ count: 1 }] },
      { name: 'Colette', books: [{ count: 2 }] },
      { name: 'Nobody', books: [{ count: 0 }] },
    ]);
    const res = await f.rest('/books?select=meta->tags->0,m:meta->tags->>0,meta->>lang&id=eq.1');
    expect(await res.json()).toEqual([{ tags: 'a', m: 'a', lang: 'en' }]);
  });

  it('filters, orders and pages inside embeds; !inner filters the parent', async () => {
    const res = await f.rest(
      '/authors?select=name,books!inner(id,title)&books.pages=gt.100&books.order=id.desc&books.limit=1&order=id',
    );
    expect(await res.json()).toEqual([
      { name: 'Ada', books: [{ id: 1, title: 'Notes' }] },
      { name: 'Colette', books: [{ id: 4, title: 'Sido' }] },
    ]);
    const left = await f.rest(
      '/authors?select=name,books(id)&books.or=(id.eq.2,id.eq.4)&order=id&limit=3',
    );
    expect(await left.json()).toEqual([
      { name: 'Ada', books: [] },
      { name: 'Basho', books: [{ id: 2 }] },
      { name: 'Colette', books: [{ id: 4 }] },
    ]);
  });

  it('filters parents by embed null-ness, and supports empty embeds for filtering', async () => {
    const { data } = await f.anon
      .from('authors')
      .select('id, profiles(id)')
      .not('profiles', 'is', null);
    expect(data).toEqual([{ id: 1, profiles: { id: 1 } }]);
    const res = await f.rest('/authors?select=id,countries!inner()&countries.name=eq.Japan');
    expect(await res.json()).toEqual([{ id: 2 }]);
  });

  it('ignores filters on an empty embed without !inner (no key, no filtering of the parent)', async () => {
    const { data, error, status } = await f.anon
      .from('books')
      .select('id, authors()')
      .eq('authors.name', 'Ada')
      .order('id');
    expect([status, error, data]).toEqual([
      200,
      null,
      [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
    ]);
    const nested = await f.rest(
      '/books?select=id,authors(id,countries())&authors.countries.name=eq.Japan&authors.countries.order=name&id=lt.3&order=id',
    );
    expect([nested.status, await nested.json()]).toEqual([
      200,
      [
        { id: 1, authors: { id: 1 } },
        { id: 2, authors: { id: 2 } },
      ],
    ]);
    // The embed's filters still count where it is tested: !inner, and rel=is.null.
    const inner = await f.rest('/books?select=id,authors!inner()&authors.name=eq.Ada');
    expect(await inner.json()).toEqual([{ id: 1 }]);
    const notNull = await f.rest(
      '/books?select=id,authors()&authors.name=eq.Basho&authors=not.is.null',
    );
    expect(await notNull.json()).toEqual([{ id: 2 }]);
    const isNull = await f.rest(
      '/books?select=id,authors()&authors.name=in.(Ada,Basho)&or=(authors.is.null,id.eq.1)&order=id',
    );
    expect(await isNull.json()).toEqual([{ id: 1 }, { id: 3 }, { id: 4 }]);
  });

  it('disambiguates with !fk and !column hints, and spreads to-one embeds', async () => {
    const res = await f.rest(
      '/messages?select=body,from:authors!messages_sender_fkey(name),to:authors!receiver_id(name)&order=id',
    );
    expect(await res.json()).toEqual([
      { body: 'hi', from: { name: 'Ada' }, to: { name: 'Basho' } },
      { body: 'yo', from: { name: 'Basho' }, to: { name: 'Ada' } },
    ]);
    const spread = await f.rest(
      '/books?select=title,...authors(author:name,...countries(country:name))&id=eq.3',
    );
    expect(await spread.json()).toEqual([{ title: 'Cheri', author: 'Colette', country: 'France' }]);
  });

  it('embeds many-to-many through a junction table, and through views', async () => {
    const res = await f.rest(
      '/books?select=title,genres(name)&genres.order=name&id=in.(1,3)&order=id',
    );
    expect(await res.json()).toEqual([
      { title: 'Notes', genres: [] },
      { title: 'Cheri', genres: [{ name: 'french' }, { name: 'prose' }] },
    ]);
    const view = await f.rest('/author_names?select=name,countries(name),books(id)&id=eq.2');
    expect(await view.json()).toEqual([
      { name: 'Basho', countries: { name: 'Japan' }, books: [{ id: 2 }] },
    ]);
  });

  it('orders parents by a to-one embed column', async () => {
    const res = await f.rest('/books?select=id,authors(name)&order=authors(name).desc,id');
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([3, 4, 2, 1]);
    const aliased = await f.rest('/books?select=id,a:authors(name)&order=a(name).desc,id');
    expect((await aliased.json()).map((r: { id: number }) => r.id)).toEqual([3, 4, 2, 1]);
  });

  it('answers PGRST108 for an order on a resource not embedded (or named past its alias), PGRST118 for to-many', async () => {
    const notEmbedded = {
      code: 'PGRST108',
      message: "'authors' is not an embedded resource in this request",
      details: null,
      hint: "Verify that 'authors' is included in the 'select' query parameter.",
    };
    for (const select of ['id', 'id,a:authors(name)']) {
      const res = await f.rest(`/books?select=${select}&order=authors(name).desc`);
      expect([res.status, await res.json()]).toEqual([400, notEmbedded]);
    }
    const toMany = await f.rest('/authors?select=id,books(title)&order=books(title)');
    expect([toMany.status, await toMany.json()]).toEqual([
      400,
      {
        code: 'PGRST118',
        message: "A related order on 'books' is not possible",
        details: "'authors' and 'books' do not form a many-to-one or one-to-one relationship",
        hint: null,
      },
    ]);
    // Other operators on an embed's name are filters on a column of that name, as upstream
    // (its PGRST120 is defined but never raised in v12 to v14).
    const badOp = await f.rest('/books?select=id,authors(name)&authors=eq.x');
    expect([badOp.status, (await badOp.json()).code]).toEqual([400, '42703']);
  });

  it('answers 300 PGRST201 for an ambiguous embed and 400 PGRST200 for none', async () => {
    const ambiguous = await f.rest('/messages?select=*,authors(*)');
    expect(ambiguous.status).toBe(300);
    const body = await ambiguous.json();
    expect(body.code).toBe('PGRST201');
    expect(body.details).toHaveLength(2);
    const none = await f.rest('/books?select=*,messages(*)');
    expect(none.status).toBe(400);
    expect((await none.json()).code).toBe('PGRST200');
  });

  it('answers 400 PGRST108 for a filter on something not embedded', async () => {
    const res = await f.rest('/books?select=id&authors.name=eq.Ada');
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('PGRST108');
    const aliased = await f.rest('/books?select=id,writer:authors(name)&authors.name=eq.Ada');
    expect(await aliased.json()).toEqual({
      code: 'PGRST108',
      message: "'authors' is not an embedded resource in this request",
      details: 'Target names are not allowed in filters if they have an alias',
      hint: "Change 'authors' to 'writer' in filters, orders or limits.",
    });
    const byAlias = await f.rest('/books?select=id,writer:authors!inner(name)&writer.name=eq.Ada');
    expect(await byAlias.json()).toEqual([{ id: 1, writer: { name: 'Ada' } }]);
  });
});

describe('order, paging, counts', () => {
  it('orders with nulls first/last and on several columns', async () => {
    expect(await ids('order=note.desc.nullslast,id.asc')).toEqual([2, 4, 1, 3]);
    const res = await f.rest('/books?select=id&order=note.asc.nullsfirst,id.desc');
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([3, 1, 4, 2]);
  });

  it('pages with limit/offset and reports Content-Range', async () => {
    const res = await f.rest('/books?select=id&order=id&limit=2&offset=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('1-2/*');
    expect(await res.json()).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('counts exactly: 206 for a partial page, */0 when empty, 416 past the end', async () => {
    const partial = await f.rest('/books?select=id&limit=2', {
      headers: { Prefer: 'count=exact' },
    });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('0-1/4');
    const empty = await f.rest('/books?id=eq.99', { headers: { Prefer: 'count=exact' } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-range')).toBe('*/0');
    const past = await f.rest('/books?offset=10', { headers: { Prefer: 'count=exact' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('*/4');
    expect((await past.json()).code).toBe('PGRST103');
    // Estimated is exact within max_rows; planned is the planner's guess (count-estimate tests).
    const { count: n, data } = await f.anon
      .from('books')
      .select('id', { count: 'estimated' })
      .range(0, 0);
    expect([n, data]).toEqual([4, [{ id: 1 }]]);
  });

  it('echoes the preferences a read applied in Preference-Applied (PostgREST v12)', async () => {
    const res = await f.rest('/books?select=id&limit=1', {
      headers: { Prefer: 'return=minimal, timezone=Asia/Tokyo, count=exact, handling=lenient' },
    });
    expect(res.headers.get('preference-applied')).toBe(
      'count=exact, handling=lenient, timezone=Asia/Tokyo',
    );
    const unknownZone = await f.rest('/books?select=id&limit=1', {
      headers: { Prefer: 'timezone=Mars/Olympus' },
    });
    expect([unknownZone.status, unknownZone.headers.get('preference-applied')]).toEqual([
      200,
      null,
    ]);
  });

  it('honours a Range header like offset/limit', async () => {
    const res = await f.rest('/books?select=id&order=id', {
      headers: { Range: '1-2', Prefer: 'count=exact' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('1-2/4');
    expect(await res.json()).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('answers HEAD with headers only', async () => {
    const { count, data, status } = await f.anon
      .from('books')
      .select('*', { count: 'exact', head: true });
    expect([count, data, status]).toEqual([4, null, 200]);
  });

  it('truncates reads at max_rows (1000) silently', async () => {
    const { data, count } = await f.anon.from('numbers').select('n', { count: 'exact' });
    expect(data).toHaveLength(1000);
    expect(count).toBe(1005);
  });
});

describe('single and media types', () => {
  it('returns an object for .single() and 406 PGRST116 for 0 or many rows', async () => {
    const { data } = await f.anon.from('books').select('id,title').eq('id', 2).single();
    expect(data).toEqual({ id: 2, title: 'Frog Pond' });
    const many = await f.rest('/books?select=id', {
      headers: { Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(many.status).toBe(406);
    expect(await many.json()).toEqual({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 4 rows',
      hint: null,
    });
    const { data: none, error } = await f.anon
      .from('books')
      .select('id')
      .eq('id', 99)
      .maybeSingle();
    expect([none, error]).toEqual([null, null]);
  });

  it('renders timestamps in the zone of Prefer: timezone', async () => {
    const res = await f.rest('/books?select=t:published::timestamptz&id=eq.3', {
      headers: { Prefer: 'timezone=Asia/Tokyo' },
    });
    expect(await res.json()).toEqual([{ t: '1920-01-01T00:00:00+09:00' }]);
    const strict = await f.rest('/books?select=id', {
      headers: { Prefer: 'handling=strict, timezone=Mars/Base' },
    });
    expect([strict.status, (await strict.json()).code]).toEqual([400, 'PGRST122']);
  });

  it('answers CSV for Accept: text/csv', async () => {
    const { data, error } = await f.anon
      .from('books')
      .select('id,title,note')
      .in('id', [1, 4])
      .order('id')
      .csv();
    expect(error).toBeNull();
    expect(data).toBe('id,title,note\n1,Notes,\n4,Sido,"a,b (c)"');
  });

  it('answers 406 PGRST107 for an unacceptable Accept and strips nulls on request', async () => {
    const bad = await f.rest('/books', { headers: { Accept: 'image/png' } });
    expect(bad.status).toBe(406);
    expect((await bad.json()).code).toBe('PGRST107');
    const stripped = await f.rest('/books?select=id,note&id=eq.1', {
      headers: { Accept: 'application/vnd.pgrst.array+json;nulls=stripped' },
    });
    expect(await stripped.json()).toEqual([{ id: 1 }]);
  });
});
