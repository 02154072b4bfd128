// The summary of `npm test` names failed tests from the runners' JSON reports.
import { describe, expect, it } from 'vitest';
import { firstLine, playwrightFailures, vitestFailures } from './test-failures';

describe('vitestFailures', () => {
  it('names each failed assertion with its file and first message line', () => {
    const failed = vitestFailures(
      {
        testResults: [
          {
            name: '/repo/tests/a.test.ts',
            status: 'failed',
            assertionResults: [
              { fullName: 'a passes', status: 'passed' },
              {
                fullName: 'a fails',
                status: 'failed',
                failureMessages: [
                  '\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x',
                ],
              },
            ],
          },
          { name: '/repo/tests/b.test.ts', status: 'passed', assertionResults: [] },
        ],
      },
      '/repo',
    );
    expect(failed).toEqual([
      { where: 'tests/a.test.ts', name: 'a fails', message: 'AssertionError: expected 1 to be 2' },
    ]);
  });

  it('names a file that failed without a failed assertion (a load or hook error)', () => {
    const failed = vitestFailures(
      { testResults: [{ name: '/r/c.test.ts', status: 'failed', message: 'SyntaxError: x' }] },
      '/r',
    );
    expect(failed).toEqual([
      { where: 'c.test.ts', name: '(the file itself)', message: 'SyntaxError: x' },
    ]);
  });
});

describe('playwrightFailures', () => {
  it('walks nested suites and names failed specs with their describe titles', () => {
    const failed = playwrightFailures([
      {
        title: 'home.spec.ts',
        file: 'home.spec.ts',
        specs: [{ title: 'ok', ok: true, line: 3 }],
        suites: [
          {
            title: 'home page',
            file: 'home.spec.ts',
            specs: [],
            suites: [
              {
                title: 'inner',
                file: 'home.spec.ts',
                specs: [
                  {
                    title: 'shows the form',
                    ok: false,
                    line: 21,
                    tests: [{ results: [{ error: { message: 'Timed out\nmore' } }] }],
                  },
                ],
              },
            ],
          },
        ],
      },
    ]);
    expect(failed).toEqual([
      {
        where: 'home.spec.ts:21',
        name: 'home page › inner › shows the form',
        message: 'Timed out',
      },
    ]);
  });
});

describe('firstLine', () => {
  it('skips blank lines and cuts at 200 characters', () => {
    expect(firstLine('\n\n  hello  \nworld')).toBe('hello');
    expect(firstLine('x'.repeat(300))).toHaveLength(200);
    expect(firstLine(undefined)).toBe('');
  });
});
