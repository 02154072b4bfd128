// Names the failed tests from Vitest's and Playwright's JSON reports, so the end of `npm test`'s
// output (often all a CI log keeps) says which tests failed, not only how many.
import { readFileSync } from 'node:fs';

interface VitestReport {
  testResults?: Array<{
    name?: string;
    message?: string;
    status?: string;
    assertionResults?: Array<{ fullName?: string; status?: string; failureMessages?: string[] }>;
  }>;
}

interface PlaywrightSuite {
  title?: string;
  file?: string;
  specs?: Array<{
    title?: string;
    file?: string;
    ok?: boolean;
    line?: number;
    tests?: Array<{ results?: Array<{ error?: { message?: string } }> }>;
  }>;
  suites?: PlaywrightSuite[];
}

export interface FailedTest {
  where: string;
  name: string;
  message: string;
}

/** The first line of a failure message, without terminal colours, at most 200 characters. */
export function firstLine(message: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing ANSI colour codes is the point
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const line = plain.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

export function vitestFailures(report: VitestReport, root = process.cwd()): FailedTest[] {
  const failed: FailedTest[] = [];
  for (const file of report.testResults ?? []) {
    const where = (file.name ?? '?').replace(`${root}/`, '');
    const assertions = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of assertions) {
      failed.push({ where, name: a.fullName ?? '?', message: firstLine(a.failureMessages?.[0]) });
    }
    // A file that failed to load or whose hooks failed has no failed assertion to name.
    if (assertions.length === 0 && file.status === 'failed') {
      failed.push({ where, name: '(the file itself)', message: firstLine(file.message) });
    }
  }
  return failed;
}

export function playwrightFailures(suites: PlaywrightSuite[], titles: string[] = []): FailedTest[] {
  const failed: FailedTest[] = [];
  for (const suite of suites) {
    // A file's own suite is titled with its path; describe blocks add their titles.
    const path = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      if (spec.ok !== false) continue;
      const results = spec.tests?.flatMap((t) => t.results ?? []) ?? [];
      const error = results.find((r) => r.error)?.error?.message;
      failed.push({
        where: `${spec.file ?? suite.file ?? '?'}:${spec.line ?? '?'}`,
        name: [...path, spec.title ?? '?'].join(' › '),
        message: firstLine(error),
      });
    }
    failed.push(...playwrightFailures(suite.suites ?? [], path));
  }
  return failed;
}

/** The failed tests of a report file, or an empty list when it cannot be read. */
export function failuresIn(file: string, kind: 'vitest' | 'playwright'): FailedTest[] {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    return kind === 'vitest' ? vitestFailures(json) : playwrightFailures(json.suites ?? []);
  } catch {
    return [];
  }
}
