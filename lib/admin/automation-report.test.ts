// The automation report's pure helpers: rows to counts, a step's numbers, the empty state and when
// opens or clicks have a column.
import { describe, expect, it } from 'vitest';
import {
  countsOf,
  isEmptyReport,
  showsEngagement,
  stepCounts,
  ZERO,
  type AutomationReport,
} from './automation-report';

describe('countsOf', () => {
  it('reads every number of a report row, nulls and missing ones as 0', () => {
    expect(countsOf({ active: 2, sent: null, unique_opens: 5 })).toEqual({
      ...ZERO,
      active: 2,
      unique_opens: 5,
    });
  });
});

describe('stepCounts', () => {
  const { completed: _completed, ...zero } = ZERO;
  const report: AutomationReport = {
    totals: { ...ZERO, sent: 3 },
    steps: { a: { ...zero, sent: 3, bounced: 1 } },
  };
  it("answers a step's numbers, and zeros for a step with no row or before the report answered", () => {
    expect(stepCounts(report, 'a')).toEqual({ ...zero, sent: 3, bounced: 1 });
    expect(stepCounts(report, 'b')).toEqual(zero);
    expect(stepCounts(undefined, 'a')).toEqual(zero);
  });
});

describe('isEmptyReport', () => {
  it('is empty until someone is enrolled or an email is recorded', () => {
    expect(isEmptyReport(ZERO)).toBe(true);
    expect(isEmptyReport({ ...ZERO, completed: 1 })).toBe(false);
    expect(isEmptyReport({ ...ZERO, failed: 1 })).toBe(false);
  });
});

describe('showsEngagement', () => {
  it('shows opens or clicks while tracking is on, or once any were counted', () => {
    const none = [{ unique_opens: 0, unique_clicks: 0 }];
    expect(showsEngagement(false, none, 'unique_opens')).toBe(false);
    expect(showsEngagement(true, none, 'unique_opens')).toBe(true);
    expect(showsEngagement(false, [{ unique_opens: 0, unique_clicks: 2 }], 'unique_clicks')).toBe(
      true,
    );
  });
});
