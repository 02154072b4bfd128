// Issue 2's benchmark: what one REST round trip through the emulator costs compared with sending the
// same SQL directly. Three cases (select by primary key, a filtered page of 50, an insert with
// return=minimal), each through the unchanged supabase-js client and directly over one connection.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { openDirect, type DirectConnection } from './direct.js';
import { measureSides, type Operation } from './measure.js';
import { summarize } from './stats.js';
import type {
  Backend,
  Benchmark,
  BenchOptions,
  BenchResult,
  Comparison,
  GoalResult,
  Measurement,
} from './types.js';

const ROWS = 10_000;
const PAGE = 50;
/** REST p50 may be at most this many times the direct p50 (issue 2). */
const GOAL_RATIO: Record<Backend, number> = { postgres: 2, pglite: 3 };
const COLUMNS = 'id, owner, title, score, created_at';

/** Deterministic inputs, so every run and both sides ask for the same rows (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  name: string;
  rest: Operation;
  direct: Operation;
  bare: Operation;
}

function expectRows(rows: unknown[] | null, count: number, what: string) {
  if (!rows || rows.length !== count) {
    throw new Error(`${what}: expected ${count} rows, got ${rows ? rows.length : 'none'}`);
  }
}

function cases(
  supabase: SupabaseClient,
  direct: DirectConnection,
  claims: object,
  iterations: number,
) {
  const next = random(42);
  const ids = Array.from({ length: iterations }, () => 1 + Math.floor(next() * ROWS));
  const minScores = Array.from({ length: iterations }, () => Math.floor(next() * 900));
  const item = (i: number) => ({ owner: randomUUID(), title: `bench ${i}`, score: i % 1000 });
  const asAnon = (sql: string, params: unknown[]) => direct.asRequest('anon', claims, sql, params);

  const byId = `select ${COLUMNS} from public.items where id = $1`;
  const page = `select ${COLUMNS} from public.items where score >= $1 order by id limit ${PAGE}`;
  const insert = 'insert into public.items (owner, title, score) values ($1, $2, $3)';

  return [
    {
      name: 'select by primary key',
      async rest(i) {
        const { data, error } = await supabase.from('items').select('*').eq('id', ids[i]!);
        if (error) throw new Error(`REST ${error.code}: ${error.message}`);
        expectRows(data, 1, 'REST');
      },
      direct: async (i) => expectRows(await asAnon(byId, [ids[i]]), 1, 'direct'),
      bare: async (i) => expectRows(await direct.bare(byId, [ids[i]]), 1, 'bare'),
    },
    {
      name: `filtered list of ${PAGE}`,
      async rest(i) {
        const { data, error } = await supabase
          .from('items')
          .select('*')
          .gte('score', minScores[i]!)
          .order('id')
          .limit(PAGE);
        if (error) throw new Error(`REST ${error.code}: ${error.message}`);
        expectRows(data, PAGE, 'REST');
      },
      direct: async (i) => expectRows(await asAnon(page, [minScores[i]]), PAGE, 'direct'),
      bare: async (i) => expectRows(await direct.bare(page, [minScores[i]]), PAGE, 'bare'),
    },
    {
      name: 'insert (return=minimal)',
      async rest(i) {
        // Without .select() supabase-js sends `Prefer: return=minimal` and expects 201, no body.
        const { error, status } = await supabase.from('items').insert(item(i));
        if (error) throw new Error(`REST ${error.code}: ${error.message}`);
        if (status !== 201) throw new Error(`REST insert answered ${status}, expected 201`);
      },
      direct: async (i) => {
        const { owner, title, score } = item(i);
        await asAnon(insert, [owner, title, score]);
      },
      bare: async (i) => {
        const { owner, title, score } = item(i);
        await direct.bare(insert, [owner, title, score]);
      },
    },
  ] satisfies Case[];
}

/** Waits until REST serves the fixture table (its schema cache may reload after DDL). */
async function waitForRest(emu: RunningEmulator): Promise<string | null> {
  let last = '';
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${emu.url}/rest/v1/items?select=id&limit=1`, {
      headers: { apikey: emu.keys.anon, authorization: `Bearer ${emu.keys.anon}` },
    });
    const body = await res.text();
    if (res.status === 200) return null;
    last = `GET /rest/v1/items answered ${res.status}: ${body.slice(0, 200)}`;
    await new Promise((r) => setTimeout(r, 200));
  }
  return last;
}

function judge(backend: Backend, comparisons: Comparison[]): GoalResult[] {
  const limit = GOAL_RATIO[backend];
  return comparisons
    .filter((c) => c.denominator === 'direct')
    .map((c) => ({
      goal: `${c.case}: REST p50 ≤ ${limit}× direct p50 on ${backend}`,
      met: c.p50Ratio === null ? null : c.p50Ratio <= limit,
      detail: c.p50Ratio === null ? 'a side failed' : `${c.p50Ratio.toFixed(2)}×`,
    }));
}

async function run(options: BenchOptions): Promise<BenchResult> {
  const emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
  const backend: Backend = emu.db.kind;
  let direct: DirectConnection | null = null;
  try {
    options.log(`backend ${backend}; loading ${ROWS} rows`);
    await emu.db.exec(await readFile(new URL('./fixtures/items.sql', import.meta.url), 'utf8'));
    direct = await openDirect(emu);
    const restProblem = await waitForRest(emu);
    // One client for the whole run, as an app would hold one; its fetch keeps the connection alive.
    const supabase = createClient(emu.url, emu.keys.anon, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const claims = JSON.parse(Buffer.from(emu.keys.anon.split('.')[1]!, 'base64url').toString());

    const measurements: Measurement[] = [];
    const comparisons: Comparison[] = [];
    for (const c of cases(supabase, direct, claims, options.warmup + options.samples)) {
      options.log(`${c.name}: ${options.warmup} warm-up + ${options.samples} samples per side`);
      const sides: Record<string, Operation> = { direct: c.direct, bare: c.bare };
      if (!restProblem) sides.rest = c.rest;
      const outcome = await measureSides(sides, options);
      if (restProblem) outcome.rest = { samples: null, error: `REST not serving: ${restProblem}` };
      const stats = (side: string) => {
        const o = outcome[side]!;
        return o.samples ? summarize(o.samples) : null;
      };
      for (const side of ['rest', 'direct', 'bare']) {
        measurements.push({ case: c.name, side, stats: stats(side), error: outcome[side]!.error });
      }
      for (const denominator of ['direct', 'bare']) {
        const [num, den] = [stats('rest'), stats(denominator)];
        comparisons.push({
          case: c.name,
          numerator: 'rest',
          denominator,
          p50Ratio: num && den ? num.p50 / den.p50 : null,
          p99Ratio: num && den ? num.p99 / den.p99 : null,
          p50DeltaMs: num && den ? num.p50 - den.p50 : null,
        });
      }
    }
    return {
      backend,
      measurements,
      comparisons,
      goals: judge(backend, comparisons),
      notes: [
        'rest: supabase-js 2.119 (one client, anon key) → HTTP on loopback → gateway → REST service → database.',
        backend === 'pglite'
          ? 'direct: the same SQL on the emulator’s in-process PGlite (its one connection), no HTTP.'
          : 'direct: the same SQL over one pg.Client to the same throw-away database, no HTTP.',
        'direct counts the per-request setup REST also pays: a transaction with role anon and the anon ' +
          'JWT claims set via set_config(…, true), so RLS runs the same. The goal ratio is rest/direct.',
        'bare: the statement alone as the superuser (no transaction, no role, no RLS) — a floor, for context.',
        'Sides are interleaved sample by sample; other processes on the machine add noise (see loadAverage1m).',
      ],
    };
  } finally {
    await direct?.close();
    await emu.stop();
  }
}

export const restRoundtrip: Benchmark = {
  name: 'rest-roundtrip',
  description:
    'REST round trip vs. direct SQL: select by primary key, a filtered page of 50, insert with return=minimal',
  run,
};
