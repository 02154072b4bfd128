// REST conformance, writes that change rows: update and delete with filters, columns=, counts,
// paging (PGRST109), Prefer tokens (tx, max-affected, handling=strict) and pg-safeupdate.
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
