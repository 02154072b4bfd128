// `npm test`: every check CI runs, in order, with one summary at the end.
// Static checks, unit + integration tests on PGlite (and on native Postgres when TEST_DATABASE_URL is
// set), the static export (scripts/build-site.ts), then the Playwright suite against the exported site.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { failuresIn, type FailedTest } from './test-failures.js';

interface Step {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Where the step's JSON report lands, to count tests. */
  report?: { file: string; kind: 'vitest' | 'playwright' };
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const scripts = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
).scripts;
const nativeUrl = process.env.TEST_DATABASE_URL;
mkdirSync('test-results', { recursive: true });

const steps: Step[] = [
  { name: 'type check', command: 'npx', args: ['tsc', '--noEmit'] },
  { name: 'lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'] },
  { name: 'format', command: 'npx', args: ['prettier', '--check', '.'] },
  {
    name: 'deno check (edge functions)',
    command: 'npm',
    args: ['run', '--silent', 'check:functions'],
  },
  { name: 'generated database types', command: 'npm', args: ['run', '--silent', 'check:types'] },
  { name: 'import cycles', command: 'npm', args: ['run', '--silent', 'check:cycles'] },
  {
    name: 'unit + integration (PGlite)',
    command: 'npx',
    args: [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/vitest-pglite.json',
    ],
    env: { DATABASE_URL: '' },
    report: { file: 'test-results/vitest-pglite.json', kind: 'vitest' },
  },
];
if (nativeUrl) {
  steps.push({
    name: 'integration (PostgreSQL)',
    command: 'npx',
    args: [
      'vitest',
      'run',
      'integration',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=test-results/vitest-postgres.json',
    ],
    env: { DATABASE_URL: nativeUrl },
    report: { file: 'test-results/vitest-postgres.json', kind: 'vitest' },
  });
}
steps.push(
  {
    // Against a seeded emulator on the e2e ports, so the exported HTML carries the seed's identity
    // and public lists as the e2e run's own emulator (the same seed) then serves them.
    name: 'static export (next build against the seeded e2e emulator)',
    command: 'npx',
    args: ['tsx', 'scripts/build-site.ts', '--emulator'],
  },
  {
    name: 'end-to-end (Playwright, Chromium)',
    command: 'npx',
    args: ['playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json', DATABASE_URL: '' },
    report: { file: 'test-results/playwright.json', kind: 'playwright' },
  },
);

function countReport(report: NonNullable<Step['report']>): Counts | null {
  try {
    const json = JSON.parse(readFileSync(report.file, 'utf8'));
    if (report.kind === 'vitest') {
      return {
        passed: json.numPassedTests ?? 0,
        failed: json.numFailedTests ?? 0,
        skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
      };
    }
    const stats = json.stats ?? {};
    return {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: stats.unexpected ?? 0,
      skipped: stats.skipped ?? 0,
    };
  } catch {
    return null;
  }
}

const results: Array<{
  name: string;
  ok: boolean;
  seconds: number;
  counts: Counts | null;
  failures: FailedTest[];
}> = [];
for (const step of steps) {
  const script = step.command === 'npm' ? step.args[2] : undefined;
  if (script && !scripts[script]) {
    console.error(`\n✗ ${step.name}: package.json has no "${script}" script`);
    results.push({ name: step.name, ok: false, seconds: 0, counts: null, failures: [] });
    continue;
  }
  console.log(`\n▶ ${step.name}: ${step.command} ${step.args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(step.command, step.args, {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const ok = run.status === 0;
  const counts = step.report ? countReport(step.report) : null;
  const failures = step.report ? failuresIn(step.report.file, step.report.kind) : [];
  results.push({ name: step.name, ok, seconds: (Date.now() - started) / 1000, counts, failures });
}

console.log('\nSummary');
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const r of results) {
  const c = r.counts;
  if (c) {
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
  } else if (!r.ok) {
    total.failed += 1; // a failed check without a test report counts as one failure
  }
  const detail = c ? ` — ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : '';
  console.log(`  ${r.ok ? '✓' : '✗'} ${r.name} (${r.seconds.toFixed(1)} s)${detail}`);
  // The failed tests by name: a CI log is often cut to its last lines.
  for (const f of r.failures) {
    console.log(`      ✗ ${f.where} › ${f.name}${f.message ? `\n          ${f.message}` : ''}`);
  }
}
const failedSteps = results.filter((r) => !r.ok).length;
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedSteps === 0 && total.failed === 0 ? 0 : 1);
