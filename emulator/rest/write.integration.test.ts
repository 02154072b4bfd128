// REST conformance, writes: insert/upsert/update/delete with every Prefer token, columns, on_conflict, errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());
beforeEach(async () => {
  await f.emu.db.exec('truncate public.items restart identity');
});

const json = (body: unknown, prefer?: string, extra: Record<string, string> = {}) => ({
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(prefer ? { Prefer: prefer } : {}), ...extra },
});

describe('insert', () => {
  it('answers 201 with no body by default, and the rows with return=representation', async () => {
    const minimal = await f.rest('/items', { method: 'POST', ...json({ sku: 'a', name: 'A' }) });
    expect(minimal.status).toBe(201);
    expect(await minimal.text()).toBe('');
    const { data, error, status } = await f.anon
      .from('items')
      .insert([
        { sku: 'b', name: 'B', qty: 5 },
        { sku: 'c', qty: 1 },
      ])
      .select('id, sku, name, qty');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([
      { id: 2, sku: 'b', name: 'B', qty: 5 },
      { id: 3, sku: 'c', name: null, qty: 1 },
    ]);
  });

  it('hands Postgres the JSON body unchanged: a bigint past 2^53 keeps its last digit', async () => {
    // JSON.parse would read 9007199254740993 as 9007199254740992; PostgREST passes the text on.
    for (const [sku, body] of [
      ['one', '{"id": 9007199254740993, "sku": "one"}'],
      ['many', '[{"id": 9007199254740995, "sku": "many"}]'],
    ]) {
      const res = await f.rest('/items', {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(201);
      const { rows } = await f.emu.db.query<{ id: string }>(
        'select id::text from public.items where sku = $1',
        [sku],
      );
      expect(rows).toEqual([{ id: sku === 'one' ? '9007199254740993' : '9007199254740995' }]);
    }
  });

  it('inserts null for a missing key unless Prefer: missing=default', async () => {
    const missing = await f.anon.from('items').insert([{ sku: 'n', qty: 2 }, { sku: 'o' }]);
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('23502');
    const { data, error } = await f.anon
      .from('items')
      .insert([{ sku: 'd', qty: 2 }, { sku: 'e' }], { defaultToNull: false })
      .select('sku, qty');
    expect(error).toBeNull();
    expect(data).toEqual([
      { sku: 'd', qty: 2 },
      { sku: 'e', qty: 1 },
    ]);
  });

  it('reports counts as */N and returns an object for .single()', async () => {
    const res = await f.rest('/items?columns="sku","name"', {
      method: 'POST',
      ...json([{ sku: 'x', name: 'X', extra: 1 }, { sku: 'y' }], 'count=exact'),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-range')).toBe('*/2');
    const { data } = await f.anon.from('items').insert({ sku: 'z' }).select('sku').single();
    expect(data).toEqual({ sku: 'z' });
  });

  it('embeds related rows in the representation of a write', async () => {
    const { data, error } = await f.service
      .from('books')
      .insert({ id: 50, title: 'Draft', author_id: 2 })
      .select('title, authors(name)')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Draft', authors: { name: 'Basho' } });
    const { data: updated } = await f.service
      .from('books')
      .update({ title: 'Final' })
      .eq('id', 50)
      .select('title, authors(countries(name))');
    expect(updated).toEqual([{ title: 'Final', authors: { countries: { name: 'Japan' } } }]);
    await f.service.from('books').delete().eq('id', 50);
  });

  it('answers PGRST204 for an unknown column and PGRST102 for invalid JSON', async () => {
    const unknown = await f.rest('/items', { method: 'POST', ...json({ nope: 1 }) });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      code: 'PGRST204',
      message: "Could not find the 'nope' column of 'items' in the schema cache",
      details: null,
      hint: null,
    });
    const bad = await f.rest('/items', {
      method: 'POST',
      body: '{"a":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('PGRST102');
  });

  it('answers 409 with the Postgres error for a unique violation', async () => {
    await f.anon.from('items').insert({ sku: 'dup' });
    const { error, status } = await f.anon.from('items').insert({ sku: 'dup' });
    expect(status).toBe(409);
    expect(error).toMatchObject({
      code: '23505',
      message: 'duplicate key value violates unique constraint "items_sku_key"',
      details: 'Key (sku)=(dup) already exists.',
    });
  });

  it('accepts CSV and form-urlencoded bodies', async () => {
    const csv = await f.rest('/items?select=sku,name,qty', {
      method: 'POST',
      body: 'sku,name,qty\ncsv1,"a, b",2\ncsv2,NULL,3',
      headers: { 'Content-Type': 'text/csv', Prefer: 'return=representation' },
    });
    expect(csv.status).toBe(201);
    expect(await csv.json()).toEqual([
      { sku: 'csv1', name: 'a, b', qty: 2 },
      { sku: 'csv2', name: null, qty: 3 },
    ]);
    const form = await f.rest('/items?select=sku,qty', {
      method: 'POST',
      body: 'sku=form&qty=4',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Prefer: 'return=representation',
      },
    });
    expect(await form.json()).toEqual([{ sku: 'form', qty: 4 }]);
  });

  it('sends headers-only with a Location', async () => {
    const res = await f.rest('/items', {
      method: 'POST',
      ...json({ sku: 'loc' }, 'return=headers-only'),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/items?id=eq.1');
  });
});

describe('upsert', () => {
  it('merges duplicates on the primary key or on_conflict columns', async () => {
    await f.anon.from('items').insert({ sku: 'u1', name: 'old', qty: 1 });
    const { data, status } = await f.anon
      .from('items')
      .upsert({ sku: 'u1', name: 'new' }, { onConflict: 'sku' })
      .select('id, sku, name, qty');
    expect(status).toBe(200);
    expect(data).toEqual([{ id: 1, sku: 'u1', name: 'new', qty: 1 }]);
    const merged = await f.anon
      .from('items')
      .upsert({ sku: 'u1', name: 'newer' }, { onConflict: 'sku' });
    expect(merged.status).toBe(200);
    const { data: inserted, status: created } = await f.anon
      .from('items')
      .upsert([
        { id: 1, sku: 'u1', name: 'again' },
        { id: 7, sku: 'u7', name: 'seven' },
      ])
      .select('id, name');
    expect(created).toBe(201);
    expect(inserted).toEqual([
      { id: 1, name: 'again' },
      { id: 7, name: 'seven' },
    ]);
  });

  it('answers 500 when one batch upserts the same key twice (21000, as pgErrorStatus)', async () => {
    const { error, status } = await f.anon.from('items').upsert(
      [
        { sku: 'd1', name: 'a' },
        { sku: 'd1', name: 'b' },
      ],
      { onConflict: 'sku' },
    );
    expect(status).toBe(500);
    expect(error?.code).toBe('21000');
    expect(error?.message).toMatch(/cannot affect row a second time/);
  });

  it('ignores duplicates with resolution=ignore-duplicates', async () => {
    await f.anon.from('items').insert({ sku: 'i1', name: 'kept' });
    const { data, error } = await f.anon
      .from('items')
      .upsert(
        [
          { sku: 'i1', name: 'lost' },
          { sku: 'i2', name: 'added' },
        ],
        {
          onConflict: 'sku',
          ignoreDuplicates: true,
        },
      )
      .select('sku, name');
    expect(error).toBeNull();
    expect(data).toEqual([{ sku: 'i2', name: 'added' }]);
    const { data: all } = await f.anon.from('items').select('sku, name').order('sku');
    expect(all).toEqual([
      { sku: 'i1', name: 'kept' },
      { sku: 'i2', name: 'added' },
    ]);
  });
});

describe('put', () => {
  it('upserts the row named by its primary key', async () => {
    const put = (id: string, body: unknown, prefer = 'return=representation') =>
      f.rest(`/items?id=eq.${id}`, { method: 'PUT', ...json(body, prefer) });
    const created = await put('5', { id: 5, sku: 'put', name: 'first' });
    expect([created.status, await created.json()]).toEqual([
      201,
      [expect.objectContaining({ id: 5, name: 'first' })],
    ]);
    const replaced = await put('5', { id: 5, sku: 'put', name: 'second' }, 'return=minimal');
    expect(replaced.status).toBe(204);
    const { data } = await f.anon.from('items').select('name').eq('id', 5);
    expect(data).toEqual([{ name: 'second' }]);
    const mismatch = await put('5', { id: 6, sku: 'x' });
    expect([mismatch.status, (await mismatch.json()).code]).toEqual([400, 'PGRST115']);
    const noKey = await f.rest('/items?sku=eq.put', { method: 'PUT', ...json({ id: 5 }) });
    expect([noKey.status, (await noKey.json()).code]).toEqual([405, 'PGRST105']);
  });
});

describe('update and delete', () => {
  beforeEach(async () => {
    await f.anon.from('items').insert([
      { sku: 'p', name: 'P', qty: 1 },
      { sku: 'q', name: 'Q', qty: 2 },
      { sku: 'r', name: 'R', qty: 3 },
    ]);
  });

  it('updates with filters: 204 minimal, 200 with representation and counts', async () => {
    const minimal = await f.rest('/items?qty=gte.2', { method: 'PATCH', ...json({ name: 'big' }) });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('content-range')).toBe('0-1/*');
    const { data, count, status } = await f.anon
      .from('items')
      .update({ qty: 10 }, { count: 'exact' })
      .eq('sku', 'p')
      .select('sku, name, qty');
    expect([status, count, data]).toEqual([200, 1, [{ sku: 'p', name: 'P', qty: 10 }]]);
  });

  it('sets only the columns named by columns= and ignores the other keys of the body', async () => {
    const res = await f.rest('/items?sku=eq.p&columns=name', {
      method: 'PATCH',
      ...json({ name: 'c2', sku: 'zzz', nope: 1 }, 'return=representation'),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject([{ sku: 'p', name: 'c2', qty: 1 }]);
    const unknown = await f.rest('/items?sku=eq.q&columns=name,nope', {
      method: 'PATCH',
      ...json({ name: 'x' }),
    });
    expect([unknown.status, (await unknown.json()).code]).toEqual([400, 'PGRST204']);
  });

  it('deletes with filters and returns the deleted rows on request', async () => {
    const { data, status } = await f.anon
      .from('items')
      .delete()
      .in('sku', ['p', 'q'])
      .select('sku');
    expect(status).toBe(200);
    expect(data).toEqual([{ sku: 'p' }, { sku: 'q' }]);
    const res = await f.rest('/items?sku=eq.r', {
      method: 'DELETE',
      headers: { Prefer: 'count=exact' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('content-range')).toBe('*/1');
  });

  it('pages updates and deletes only with an explicit order (PostgREST v12), else PGRST109', async () => {
    await f.anon.from('items').insert([
      { sku: 'L1', name: 'l' },
      { sku: 'L2', name: 'l' },
      { sku: 'L3', name: 'l' },
    ]);
    const names = async () =>
      (await f.anon.from('items').select('sku, name').like('sku', 'L*').order('sku')).data;
    const unordered = await f.rest('/items?sku=like.L*&limit=1', {
      method: 'PATCH',
      ...json({ name: 'limited' }),
    });
    expect([unordered.status, await unordered.json()]).toEqual([
      400,
      {
        code: 'PGRST109',
        message: "A 'limit' was applied without an explicit 'order'",
        details: null,
        hint: "Apply an 'order' using unique column(s)",
      },
    ]);
    const offsetOnly = await f.rest('/items?sku=like.L*&offset=1', { method: 'DELETE' });
    expect((await offsetOnly.json()).code).toBe('PGRST109');
    expect(await names()).toEqual([
      { sku: 'L1', name: 'l' },
      { sku: 'L2', name: 'l' },
      { sku: 'L3', name: 'l' },
    ]);
    const ordered = await f.rest('/items?sku=like.L*&order=sku.desc&limit=1', {
      method: 'PATCH',
      ...json({ name: 'limited' }),
    });
    expect(ordered.status).toBe(204);
    const deleted = await f.rest('/items?sku=like.L*&order=sku&limit=1&offset=1', {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    expect(await names()).toEqual([
      { sku: 'L1', name: 'l' },
      { sku: 'L3', name: 'limited' },
    ]);
    // Its page is a WHERE clause, so pg-safeupdate lets a paged write without filters through.
    const unfiltered = await f.rest('/items?order=id.desc&limit=1', {
      method: 'PATCH',
      ...json({ qty: 9 }),
    });
    expect(unfiltered.status).toBe(204);
    const { data } = await f.anon.from('items').select('sku').eq('qty', 9);
    expect(data).toEqual([{ sku: 'L3' }]);
  });

  it('echoes max-affected only with handling=strict, and a timezone only if it is known', async () => {
    const lenient = await f.rest('/items?sku=eq.p', {
      method: 'PATCH',
      ...json({ qty: 4 }, 'max-affected=5, timezone=Nowhere/Else, return=minimal'),
    });
    expect(lenient.headers.get('preference-applied')).toBe('return=minimal');
    const strict = await f.rest('/items?sku=eq.p', {
      method: 'DELETE',
      headers: { Prefer: 'max-affected=5, handling=strict, timezone=UTC' },
    });
    expect(strict.headers.get('preference-applied')).toBe(
      'handling=strict, timezone=UTC, max-affected=5',
    );
  });

  it('refuses UPDATE and DELETE without a WHERE clause (pg-safeupdate)', async () => {
    const update = await f.rest('/items', { method: 'PATCH', ...json({ qty: 0 }) });
    expect(update.status).toBe(400);
    expect(await update.json()).toEqual({
      code: '21000',
      message: 'UPDATE requires a WHERE clause',
      details: null,
      hint: null,
    });
    const { error, status } = await f.anon.from('items').delete();
    expect(status).toBe(400);
    expect(error?.message).toBe('DELETE requires a WHERE clause');
  });

  it('rolls back with Prefer: tx=rollback and enforces max-affected', async () => {
    const res = await f.rest('/items?sku=eq.p', {
      method: 'PATCH',
      ...json({ name: 'ghost' }, 'return=representation, tx=rollback'),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject([{ name: 'ghost' }]);
    const { data: after } = await f.anon.from('items').select('name').eq('sku', 'p').single();
    expect(after).toEqual({ name: 'P' });

    // What `.maxAffected(2)` sends (typed only for clients declaring PostgREST 13).
    const capped = await f.rest('/items?qty=gte.1', {
      method: 'PATCH',
      ...json({ qty: 0 }, 'handling=strict, max-affected=2'),
    });
    expect(capped.status).toBe(400);
    expect(await capped.json()).toMatchObject({
      code: 'PGRST124',
      details: 'The query affects 3 rows',
    });
    const { data: unchanged } = await f.anon.from('items').select('qty').order('qty');
    expect(unchanged).toEqual([{ qty: 1 }, { qty: 2 }, { qty: 3 }]);
  });

  it('answers PGRST122 for an invalid preference with handling=strict', async () => {
    const res = await f.rest('/items?sku=eq.p', {
      method: 'PATCH',
      ...json({ qty: 4 }, 'handling=strict, return=everything'),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('PGRST122');
  });

  it('rolls back a write whose .single() representation is not one row', async () => {
    const { error, status } = await f.anon
      .from('items')
      .update({ qty: 9 })
      .gte('qty', 1)
      .select()
      .single();
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST116');
    const { data } = await f.anon.from('items').select('qty').eq('qty', 9);
    expect(data).toEqual([]);
  });
});
