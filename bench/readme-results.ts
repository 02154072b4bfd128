// Keeps the "Latest results" table in bench/README.md in step with bench/results/*.json, so the
// README never shows numbers that no results file backs.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';

const START = '<!-- results:start (written by npm run bench from bench/results/*.json) -->';
const END = '<!-- results:end -->';

interface ResultFile {
  benchmark: string;
  machine: {
    backend: string;
    date: string;
    node: string;
    cpuModel: string;
    cpuCount: number;
    loadAverage1m: number;
    loadAverage1mEnd?: number;
    gitCommit: string | null;
  };
  options: { samples: number; warmup: number };
  measurements: {
    case: string;
    side: string;
    stats: { p50: number; p99: number } | null;
    error: string | null;
    throughput?: number | null;
  }[];
  comparisons: {
    case: string;
    numerator: string;
    denominator: string;
    p50Ratio: number | null;
    p50DeltaMs?: number | null;
  }[];
  goals: { goal: string; met: boolean | null; detail: string }[];
}

const cell = (m: ResultFile['measurements'][number] | undefined) =>
  !m ? '-' : m.stats ? `${m.stats.p50.toFixed(2)} / ${m.stats.p99.toFixed(2)}` : 'failed';

interface Pair {
  numerator: string;
  denominator: string;
  label: string;
}

/** Which sides and comparisons a benchmark's table shows, and what one sample is called. */
interface Layout {
  per: string;
  columns: { side: string; label: string }[];
  ratios: Pair[];
  deltas: Pair[];
  goals: boolean;
  /** Sides whose requests per second get a column of their own. */
  throughput?: { side: string; label: string }[];
}

const LAYOUTS: Record<string, Layout> = {
  'rest-roundtrip': {
    per: 'samples',
    columns: [
      { side: 'rest', label: 'REST' },
      { side: 'direct', label: 'direct' },
      { side: 'bare', label: 'bare' },
    ],
    ratios: [{ numerator: 'rest', denominator: 'direct', label: 'REST/direct p50' }],
    deltas: [{ numerator: 'rest', denominator: 'direct', label: 'REST − direct p50' }],
    goals: true,
  },
  'realtime-latency': {
    per: 'inserts',
    columns: [
      { side: 'no RLS', label: 'no RLS, each client' },
      { side: 'RLS', label: 'RLS, each client' },
      { side: 'no RLS, last client', label: 'no RLS, last client' },
      { side: 'RLS, last client', label: 'RLS, last client' },
      { side: 'no RLS, insert', label: 'INSERT round trip' },
    ],
    ratios: [{ numerator: 'RLS', denominator: 'no RLS', label: 'RLS/no RLS p50' }],
    deltas: [{ numerator: 'RLS', denominator: 'no RLS', label: 'RLS − no RLS p50' }],
    goals: false,
  },
  signup: {
    per: 'requests',
    columns: [
      { side: 'subscribe', label: 'subscribe' },
      { side: 'REST rpc', label: 'same SQL via REST' },
      { side: 'REST insert', label: 'REST insert (floor)' },
    ],
    throughput: [
      { side: 'subscribe', label: 'subscribe req/s' },
      { side: 'REST insert', label: 'REST insert req/s' },
    ],
    ratios: [
      { numerator: 'subscribe', denominator: 'REST rpc', label: 'subscribe/SQL via REST p50' },
      { numerator: 'subscribe', denominator: 'REST insert', label: 'subscribe/floor p50' },
    ],
    deltas: [],
    goals: true,
  },
  send: {
    per: 'recipients',
    columns: [
      { side: 'process-queue', label: 'process-queue (total ms)' },
      { side: 'process-queue, merge tags', label: 'with merge tags (total ms)' },
      { side: 'plain SMTP client', label: 'plain SMTP client (total ms)' },
    ],
    throughput: [
      { side: 'process-queue', label: 'process-queue msg/s' },
      { side: 'process-queue, merge tags', label: 'with merge tags msg/s' },
      { side: 'plain SMTP client', label: 'sink capacity msg/s' },
    ],
    ratios: [],
    deltas: [],
    goals: true,
  },
  'storage-transfer': {
    per: 'samples',
    columns: [
      { side: 'storage', label: 'storage' },
      { side: 'disk', label: 'local disk' },
      { side: 'sharp', label: 'sharp in-process' },
    ],
    ratios: [
      { numerator: 'storage', denominator: 'disk', label: 'storage/disk p50' },
      { numerator: 'storage', denominator: 'sharp', label: 'storage/sharp p50' },
    ],
    deltas: [],
    goals: false,
  },
};

/** A benchmark without a layout shows every side and every ratio in the order they were written. */
function defaultLayout(f: ResultFile): Layout {
  const pairs = [
    ...new Map(f.comparisons.map((c) => [`${c.numerator}/${c.denominator}`, c])).values(),
  ];
  return {
    per: 'samples',
    columns: [...new Set(f.measurements.map((m) => m.side))].map((side) => ({ side, label: side })),
    ratios: pairs.map((c) => ({ ...c, label: `${c.numerator}/${c.denominator} p50` })),
    deltas: [],
    goals: f.goals.length > 0,
  };
}

function renderFile(f: ResultFile): string[] {
  const m = f.machine;
  const layout = LAYOUTS[f.benchmark] ?? defaultLayout(f);
  const header = [
    'case',
    ...layout.columns.map((c) => c.label),
    ...(layout.throughput ?? []).map((t) => t.label),
    ...layout.ratios.map((r) => r.label),
    ...layout.deltas.map((d) => d.label),
    ...(layout.goals ? ['goal met'] : []),
  ];
  const lines = [
    `**${f.benchmark}** on **${m.backend}** — ${m.date.slice(0, 16).replace('T', ' ')} UTC, ` +
      `commit ${m.gitCommit ?? '?'}, Node ${m.node}, ${m.cpuCount}× ${m.cpuModel}, ` +
      `load ${m.loadAverage1m}${m.loadAverage1mEnd === undefined ? '' : `→${m.loadAverage1mEnd}`}, ` +
      `${f.options.samples} ${layout.per} (+${f.options.warmup} warm-up) per side. ` +
      'Times in ms, p50 / p99.',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
  ];
  for (const c of [...new Set(f.measurements.map((x) => x.case))]) {
    const side = (s: string) => f.measurements.find((x) => x.case === c && x.side === s);
    const pair = (p: Pair) =>
      f.comparisons.find(
        (x) => x.case === c && x.numerator === p.numerator && x.denominator === p.denominator,
      );
    const goal = f.goals.find((g) => g.goal.startsWith(`${c}:`));
    const met = !goal ? '-' : goal.met === null ? 'not judged' : goal.met ? 'yes' : 'no';
    const cells = [
      c,
      ...layout.columns.map((col) => cell(side(col.side))),
      ...(layout.throughput ?? []).map((t) => {
        const rate = side(t.side)?.throughput;
        return rate == null ? '-' : rate.toFixed(1);
      }),
      ...layout.ratios.map((r) => {
        const ratio = pair(r)?.p50Ratio;
        return ratio == null ? '-' : `${ratio.toFixed(2)}×`;
      }),
      ...layout.deltas.map((d) => {
        const delta = pair(d)?.p50DeltaMs;
        return delta == null ? '-' : `${delta.toFixed(2)} ms`;
      }),
      ...(layout.goals ? [met] : []),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const e of f.measurements.filter((x) => x.error)) {
    lines.push('', `- ${e.case} / ${e.side} failed: ${e.error}`);
  }
  return lines;
}

export function renderResultsMarkdown(files: ResultFile[]): string {
  if (!files.length) return '_No results yet: run `npm run bench`._';
  const sorted = [...files].sort(
    (a, b) =>
      a.benchmark.localeCompare(b.benchmark) || a.machine.backend.localeCompare(b.machine.backend),
  );
  return sorted
    .map((f) => renderFile(f).join('\n'))
    .join('\n\n')
    .trim();
}

export async function updateReadme(resultsDir: URL, readme: URL): Promise<void> {
  const names = (await readdir(resultsDir)).filter((n) => n.endsWith('.json')).sort();
  const files = await Promise.all(
    names.map(
      async (n) => JSON.parse(await readFile(new URL(n, resultsDir), 'utf8')) as ResultFile,
    ),
  );
  const text = await readFile(readme, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${readme.pathname} lacks the results markers`);
  const table = renderResultsMarkdown(files);
  const updated = `${text.slice(0, start + START.length)}\n\n${table}\n\n${text.slice(end)}`;
  // Formatted as CI's `prettier --check` expects (it aligns Markdown tables).
  const path = fileURLToPath(readme);
  const config = (await prettier.resolveConfig(path)) ?? {};
  await writeFile(readme, await prettier.format(updated, { ...config, filepath: path }));
}
