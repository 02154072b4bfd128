// REST conformance, Prefer: count=planned|estimated: the planner's estimate, as PostgREST answers it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './test-fixtures.js';

// 1,500 rows analysed, then 200 deleted without a new ANALYZE (autovacuum off): the planner still
// expects 1,500 where 1,300 are left, so an estimate and an exact count differ.
const TABLE = `
create table public.counted (id int primary key, grp int not null) with (autovacuum_enabled = false);
grant select on public.counted to anon;
insert into public.counted select g, g % 10 from generate_series(1, 1500) g;
analyze public.counted;
delete from public.counted where id > 1300;
`;

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture(TABLE);
}, 180_000);
afterAll(() => f?.emu.stop());

/** What Postgres's planner expects `select 1 from …` to return. */
async function planRows(fromWhere: string): Promise<number> {
  const { rows } = await f.emu.db.query<Record<string, unknown>>(
    `explain (format json) select 1 from ${fromWhere}`,
  );
  const raw = Object.values(rows[0]!)[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return plan[0]!.Plan['Plan Rows'];
}

const read = async (path: string, count: string) => {
  const res = await f.rest(path, { headers: { Prefer: `count=${count}` } });
  await res.arrayBuffer();
  return [res.status, res.headers.get('content-range'), res.headers.get('preference-applied')];
};

describe('Prefer: count=planned', () => {
  it("answers the planner's estimate, not the exact count, with 206 for a partial page", async () => {
    const all = await planRows('public.counted');
    expect(all).not.toBe(1300);
    expect(await read('/counted?select=id&limit=10', 'planned')).toEqual([
      206,
      `0-9/${all}`,
      'count=planned',
    ]);
    const filtered = await planRows('public.counted where grp = 3');
    expect(filtered).not.toBe(130);
    expect(await read('/counted?select=id&grp=eq.3&limit=5', 'planned')).toEqual([
      206,
      `0-4/${filtered}`,
      'count=planned',
    ]);
    expect(await read('/counted?select=id&limit=10', 'exact')).toEqual([
      206,
      '0-9/1300',
      'count=exact',
    ]);
  });

  it('estimates with filters of embedded rows in the query, through supabase-js', async () => {
    const { count, error } = await f.anon
      .from('authors')
      .select('name, books(title)', { count: 'planned' })
      .eq('books.title', 'Notes');
    expect(error).toBeNull();
    expect(count).toBe(await planRows('public.authors'));
  });

  it('leaves the total of a function call unknown, as upstream has no estimate for it', async () => {
    expect(await read('/rpc/series?n=3', 'planned')).toEqual([200, '0-2/*', 'count=planned']);
    expect(await read('/rpc/series?n=3', 'estimated')).toEqual([200, '0-2/3', 'count=estimated']);
  });
});

describe('Prefer: count=estimated', () => {
  it('is exact up to max_rows (1000 here)', async () => {
    expect(await read('/counted?select=id&grp=eq.3&limit=5', 'estimated')).toEqual([
      206,
      '0-4/130',
      'count=estimated',
    ]);
  });

  it('beyond max_rows takes the larger of the estimate and max_rows + 1', async () => {
    const all = await planRows('public.counted');
    expect(await read('/counted?select=id&limit=10', 'estimated')).toEqual([
      206,
      `0-9/${Math.max(all, 1001)}`,
      'count=estimated',
    ]);
  });
});
