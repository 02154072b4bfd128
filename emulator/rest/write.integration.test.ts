// REST conformance, writes that add rows: insert, upsert and PUT with every Prefer token, columns,
// on_conflict and their errors (updates and deletes: update-delete.integration.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonRequest as json, startRestFixture, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());
beforeEach(async () => {
  await f.emu.db.exec('truncate public.items restart identity');
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
