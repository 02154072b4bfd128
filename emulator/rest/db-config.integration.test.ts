// REST conformance: PostgREST's in-database config on `authenticator` (read at start and on
// NOTIFY pgrst, 'reload config') and the aggregates it enables, over HTTP on PGlite and native.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest, startRestFixture, type RestFixture } from './test-fixtures.js';

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());

/**
 * Sets (or resets, for null) `pgrst.<name>` for this database only — on a native server the role
 * is cluster-wide and other emulators share it — then asks for a config reload.
 */
async function setConfig(
  name: string,
  value: string | null,
  notify = `notify pgrst, 'reload config'`,
): Promise<void> {
  const { rows } = await f.emu.db.query<{ db: string }>('select current_database() as db');
  const db = `"${rows[0]!.db}"`;
  await f.emu.db.exec(
    value === null
      ? `alter role authenticator in database ${db} reset pgrst.${name}`
      : `alter role authenticator in database ${db} set pgrst.${name} = '${value}'`,
  );
  await f.emu.db.exec(notify);
}

/** The reload is asynchronous, as upstream's: wait until a request sees it. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the config reload never took effect');
}

const get = async (path: string) => {
  const res = await f.rest(path);
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('aggregates', () => {
  it('answer PGRST123 while pgrst.db_aggregates_enabled is off, as hosted', async () => {
    const { status, body } = await get('/books?select=pages.sum()');
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'PGRST123',
      message: 'Use of aggregate functions is not allowed',
    });
    // Functional notation on an embed is a column, not an aggregate, and always works.
    expect((await get('/authors?select=name,books(count)&id=eq.3')).body).toEqual([
      { name: 'Colette', books: [{ count: 2 }] },
    ]);
  });

  it('work once the setting is on and the config reloaded', async () => {
    await setConfig('db_aggregates_enabled', 'true');
    await until(async () => (await f.rest('/books?select=count()')).status === 200);
    expect((await get('/books?select=count()')).body).toEqual([{ count: 4 }]);
    expect(
      (await get('/books?select=pages.sum(),pages.avg()::int,price.max(),title.min()')).body,
    ).toEqual([{ sum: 480, avg: 120, max: 12.0, min: 'Cheri' }]);
  });

  it('group by the other selected columns, with aliases and input casts', async () => {
    const { body } = await get(
      '/books?select=author_id,n:count(),total:pages::text.max()&author_id=not.is.null&order=author_id',
    );
    expect(body).toEqual([
      { author_id: 1, n: 1, total: '120' },
      { author_id: 2, n: 1, total: '10' },
      { author_id: 3, n: 2, total: '200' },
    ]);
  });

  it('aggregate inside an embed, per parent row', async () => {
    const { body } = await get('/authors?select=name,books(pages.sum(),count())&order=id&id=lte.3');
    expect(body).toEqual([
      { name: 'Ada', books: [{ sum: 120, count: 1 }] },
      { name: 'Basho', books: [{ sum: 10, count: 1 }] },
      { name: 'Colette', books: [{ sum: 350, count: 2 }] },
    ]);
  });

  it('group by a to-one embed and a to-one spread', async () => {
    const byAuthor = await get('/books?select=pages.sum(),authors(name)&author_id=eq.3');
    expect(byAuthor.body).toEqual([{ sum: 350, authors: { name: 'Colette' } }]);
    const byCountry = await get('/authors?select=count(),...countries(name)&order=countries(name)');
    expect(byCountry.status).toBe(200);
    expect(byCountry.body).toEqual(
      expect.arrayContaining([
        { count: 2, name: 'France' },
        { count: 1, name: 'Japan' },
        { count: 1, name: null },
      ]),
    );
  });

  it('work through supabase-js and on RPC results', async () => {
    const { data, error } = await f.anon
      .from('books')
      .select('author_id, pages.sum()')
      .eq('author_id', 3);
    expect(error).toBeNull();
    expect(data).toEqual([{ author_id: 3, sum: 350 }]);
    const res = await f.rest('/rpc/books_by?author=3&select=count()');
    expect(await res.json()).toEqual([{ count: 2 }]);
  });
});

describe('explain (pgrst.db_plan_enabled)', () => {
  const PLAN_JSON = 'application/vnd.pgrst.plan+json; for="application/json"';

  it('answers PGRST107 while off, as hosted leaves the plan media types out', async () => {
    const res = await f.rest('/books?select=id', { headers: { Accept: PLAN_JSON } });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ code: 'PGRST107' });
  });

  it('answers the JSON and text plans of a read, and of an rpc, once on', async () => {
    await setConfig('db_plan_enabled', 'true');
    await until(async () => (await f.rest('/books', { headers: { Accept: PLAN_JSON } })).ok);
    const res = await f.rest('/books?select=title,authors(name)&id=eq.1', {
      headers: { Accept: PLAN_JSON },
    });
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8',
    );
    const [plan] = (await res.json()) as Array<{
      Plan: { 'Node Type': string; Plans?: unknown[] };
    }>;
    expect(plan!.Plan['Node Type']).toBe('Aggregate');

    const { data, error } = await f.anon.from('books').select('id').explain({ analyze: true });
    expect(error).toBeNull();
    expect(data as unknown as string).toMatch(/^Aggregate .*actual time=/);
    expect(data as unknown as string).toMatch(/Execution Time: /);

    const rpc = await f.anon.rpc('books_by', { author: 3 }).explain({ format: 'json' });
    expect(rpc.error).toBeNull();
    // books_by is a SQL function Postgres inlines: its plan scans books.
    expect(JSON.stringify(rpc.data)).toContain('"Relation Name":"books"');
  });

  it('keeps the rows out: nothing is returned but the plan', async () => {
    const res = await f.rest('/books?select=title', {
      headers: { Accept: 'application/vnd.pgrst.plan+text' },
    });
    const text = await res.text();
    expect(text).not.toContain('Notes');
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
  });

  // PostgREST's PlanSpec "writes plans": 200, the plan media type, the mutation's plan; without
  // analyze nothing runs, with it the write runs and commits unless the transaction rolls back.
  const names = async (like: string) =>
    (
      (await get(`/items?select=name&name=like.${like}*&order=name`)).body as Array<{
        name: string;
      }>
    ).map((r) => r.name);

  it('answers the plan of an insert, an update and a delete without running them', async () => {
    const insert = await f.rest('/items', {
      method: 'POST',
      ...jsonRequest({ name: 'plan-insert' }, 'return=representation', { Accept: PLAN_JSON }),
    });
    expect(insert.status).toBe(200);
    expect(insert.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8',
    );
    const [plan] = (await insert.json()) as Array<{ Plan: { 'Total Cost': number } }>;
    expect(plan!.Plan['Total Cost']).toBeGreaterThan(0);
    expect(JSON.stringify(plan)).toContain('"Operation":"Insert"');
    expect(await names('plan-')).toEqual([]);

    await f.rest('/items', { method: 'POST', ...jsonRequest({ name: 'plan-kept' }) });
    const update = await f.rest('/items?name=eq.plan-kept', {
      method: 'PATCH',
      ...jsonRequest({ name: 'plan-patched' }, undefined, {
        Accept: 'application/vnd.pgrst.plan+text',
      }),
    });
    expect(update.status).toBe(200);
    expect(update.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    );
    expect(await update.text()).toMatch(/Update on items/);

    const del = await f.rest('/items?name=eq.plan-kept', {
      method: 'DELETE',
      headers: {
        Prefer: 'return=representation',
        Accept: 'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object"',
      },
    });
    expect(del.status).toBe(200);
    expect(del.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; charset=utf-8',
    );
    expect(JSON.stringify(await del.json())).toContain('"Operation":"Delete"');
    expect(await names('plan-')).toEqual(['plan-kept']);
  });

  it('runs the write with options=analyze: it commits, unless Prefer: tx=rollback', async () => {
    const analyzed = await f.rest('/items?name=eq.plan-kept', {
      method: 'PATCH',
      ...jsonRequest({ name: 'plan-analyzed' }, undefined, {
        Accept: 'application/vnd.pgrst.plan+text; options=analyze',
      }),
    });
    expect(analyzed.status).toBe(200);
    expect(analyzed.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; options=analyze; charset=utf-8',
    );
    expect(await analyzed.text()).toMatch(/actual time=[\s\S]*Execution Time: .*\n$/);
    expect(await names('plan-')).toEqual(['plan-analyzed']);

    const rolledBack = await f.rest('/items?name=eq.plan-analyzed', {
      method: 'DELETE',
      headers: {
        Prefer: 'tx=rollback',
        Accept: 'application/vnd.pgrst.plan+json; options=analyze|verbose',
      },
    });
    expect(rolledBack.status).toBe(200);
    const [plan] = (await rolledBack.json()) as Array<{ Plan: { 'Actual Rows': number } }>;
    expect(plan!.Plan['Actual Rows']).toBe(1);
    expect(await names('plan-')).toEqual(['plan-analyzed']);

    // supabase-js's .explain() on a write: the plan, not a 501 it would retry.
    const { data, error } = await f.anon
      .from('items')
      .insert({ name: 'plan-js' })
      .explain({ analyze: true });
    expect(error).toBeNull();
    expect(data as unknown as string).toMatch(/Insert on items/);
    expect(await names('plan-')).toEqual(['plan-analyzed', 'plan-js']);
  });

  it('answers the plan of an upsert (PUT and merge-duplicates) and of an empty insert', async () => {
    const put = await f.rest('/items?id=eq.900100', {
      method: 'PUT',
      ...jsonRequest({ id: 900100, name: 'plan-put' }, undefined, { Accept: PLAN_JSON }),
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(await put.json())).toContain('"Operation":"Insert"');
    const merge = await f.rest('/items', {
      method: 'POST',
      ...jsonRequest([{ id: 900101, name: 'plan-merge' }], 'resolution=merge-duplicates', {
        Accept: PLAN_JSON,
      }),
    });
    expect(merge.status).toBe(200);
    const empty = await f.rest('/items', {
      method: 'POST',
      ...jsonRequest([], undefined, { Accept: PLAN_JSON }),
    });
    expect(empty.status).toBe(200);
    expect(await names('plan-p')).toEqual([]);
    expect(await names('plan-m')).toEqual([]);
  });
});

describe('in-database config', () => {
  it('pgrst.db_max_rows caps reads, and resetting it restores config.toml’s', async () => {
    await setConfig('db_max_rows', '2');
    await until(async () => ((await get('/numbers?select=n')).body as unknown[]).length === 2);
    const res = await f.rest('/numbers?select=n', { headers: { Prefer: 'count=exact' } });
    expect(res.headers.get('content-range')).toBe('0-1/1005');
    // A bare NOTIFY pgrst reloads the config too (and the schema cache).
    await setConfig('db_max_rows', null, 'notify pgrst');
    await until(async () => ((await get('/numbers?select=n')).body as unknown[]).length === 1000);
  });

  it('pgrst.db_extra_search_path sets the search_path requests run with', async () => {
    await f.emu.db.exec(`
      create schema if not exists extra_cfg;
      grant usage on schema extra_cfg to anon;
      create or replace function public.path_seen() returns text language sql stable
        as $$select current_setting('search_path')$$;
      grant execute on function public.path_seen() to anon;
    `);
    const path = async () => (await f.rest('/rpc/path_seen')).json() as Promise<string>;
    expect(await path()).toBe('"public", "extensions"');
    await setConfig('db_extra_search_path', 'extra_cfg, extensions');
    await until(async () => (await path()) === '"public", "extra_cfg", "extensions"');
    await setConfig('db_extra_search_path', null);
    await until(async () => (await path()) === '"public", "extensions"');
  });

  it('pgrst.db_tx_end decides whether writes commit and whether Prefer: tx may override', async () => {
    const add = (name: string, prefer?: string) =>
      f.rest('/items', {
        method: 'POST',
        ...jsonRequest({ name }, ['return=minimal', prefer].filter(Boolean).join(', ')),
      });
    const has = async (name: string) =>
      ((await get(`/items?select=id&name=eq.${name}`)).body as unknown[]).length === 1;

    await setConfig('db_tx_end', 'rollback');
    // A probe sent before the reload lands commits: each try writes a name of its own, so an early
    // row cannot make every later try look committed.
    let tries = 0;
    await until(async () => {
      const probe = `probe-rb-${++tries}`;
      await add(probe);
      return !(await has(probe));
    });
    const forced = await add('forced', 'tx=commit');
    expect(forced.status).toBe(201);
    expect(forced.headers.get('preference-applied')).toBe('return=minimal');
    expect(await has('forced')).toBe(false);

    await setConfig('db_tx_end', 'rollback-allow-override');
    await until(async () => {
      await add('probe-rbo', 'tx=commit');
      return has('probe-rbo');
    });
    const kept = await add('kept', 'tx=commit');
    expect(kept.headers.get('preference-applied')).toBe('return=minimal, tx=commit');
    expect(await has('kept')).toBe(true);
    await add('dropped');
    expect(await has('dropped')).toBe(false);

    await setConfig('db_tx_end', 'commit');
    await until(async () => {
      await add('probe-c', 'tx=rollback');
      return has('probe-c');
    });
    const ignored = await add('ignored', 'tx=rollback');
    expect(ignored.headers.get('preference-applied')).toBe('return=minimal');
    expect(await has('ignored')).toBe(true);
    await setConfig('db_tx_end', null);
  });

  // A second emulator on the same native database starts with what is set there (on PGlite one
  // database belongs to one emulator, so the reload path above is what can be shown).
  it.skipIf(!process.env.DATABASE_URL)('is read at start, not only on a reload', async () => {
    const { startEmulator } = await import('../index.js');
    await setConfig('db_aggregates_enabled', 'true');
    const second = await startEmulator({
      databaseUrl: f.emu.dbUrl!,
      port: 0,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
    });
    try {
      const res = await fetch(`${second.url}/rest/v1/books?select=count()`, {
        headers: { apikey: second.keys.anon },
      });
      expect(await res.json()).toEqual([{ count: 4 }]);
    } finally {
      await second.stop();
    }
  });
});
