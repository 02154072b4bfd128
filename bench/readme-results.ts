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

export function renderResultsMarkdown(files: ResultFile[]): string {
  if (!files.length) return '_No results yet: run `npm run bench`._';
  const sorted = [...files].sort(
    (a, b) =>
      a.benchmark.localeCompare(b.benchmark) || a.machine.backend.localeCompare(b.machine.backend),
  );
  const lines: string[] = [];
  for (const f of sorted) {
    const m = f.machine;
    lines.push(
      `**${f.benchmark}** on **${m.backend}** — ${m.date.slice(0, 16).replace('T', ' ')} UTC, ` +
        `commit ${m.gitCommit ?? '?'}, Node ${m.node}, ${m.cpuCount}× ${m.cpuModel}, ` +
        `load ${m.loadAverage1m}${m.loadAverage1mEnd === undefined ? '' : `→${m.loadAverage1mEnd}`}, ${f.options.samples} samples (+${f.options.warmup} warm-up) per side. ` +
        'Times in ms, p50 / p99.',
      '',
      '| case | REST | direct | bare | REST/direct p50 | REST − direct p50 | goal met |',
      '|---|---|---|---|---|---|---|',
    );
    const cases = [...new Set(f.measurements.map((x) => x.case))];
    for (const c of cases) {
      const side = (s: string) => f.measurements.find((x) => x.case === c && x.side === s);
      const ratio = f.comparisons.find((x) => x.case === c && x.denominator === 'direct');
      const goal = f.goals.find((g) => g.goal.startsWith(`${c}:`));
      const met = !goal ? '-' : goal.met === null ? 'not judged' : goal.met ? 'yes' : 'no';
      lines.push(
        `| ${c} | ${cell(side('rest'))} | ${cell(side('direct'))} | ${cell(side('bare'))} | ` +
          `${ratio?.p50Ratio == null ? '-' : `${ratio.p50Ratio.toFixed(2)}×`} | ` +
          `${ratio?.p50DeltaMs == null ? '-' : `${ratio.p50DeltaMs.toFixed(2)} ms`} | ${met} |`,
      );
    }
    const errors = f.measurements.filter((x) => x.error);
    for (const e of errors) lines.push('', `- ${e.case} / ${e.side} failed: ${e.error}`);
    lines.push('');
  }
  return lines.join('\n').trim();
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
