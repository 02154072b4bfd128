// The automation report's pure helpers: rows to counts, a step's numbers, the empty state, when
// opens or clicks have a column, and the automations list's figures (rates of sent, counts, "—").
import { describe, expect, it } from 'vitest';
import {
  countsOf,
  isEmptyReport,
  listFigures,
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

describe('listFigures', () => {
  const on = { opens: true, clicks: true };
  const off = { opens: false, clicks: false };
  const counts = {
    ...ZERO,
    sent: 200,
    failed: 3,
    bounced: 1,
    unsubscribed: 4,
    unique_opens: 90,
    opens: 130,
    unique_clicks: 25,
    clicks: 31,
  };

  it('shows sent with the failed sends under it, and rates of sent with their counts under them', () => {
    const f = listFigures(counts, on);
    expect(f.sent).toEqual({ text: '200', detail: '3 failed', title: '200 emails sent, 3 failed' });
    expect(f.opened).toEqual({
      text: '45%',
      detail: '90',
      title: '90 opened of 200 emails sent (45%) · 130 opens in all',
    });
    expect(f.clicked).toEqual({
      text: '13%',
      detail: '25',
      title: '25 clicked of 200 emails sent (13%) · 31 clicks in all',
    });
    expect(f.unsubscribed).toMatchObject({ text: '2%', detail: '4' });
    // Under 1 %, one decimal, so a small rate does not read as none.
    expect(f.bounced).toMatchObject({ text: '0.5%', detail: '1' });
  });

  it('says nothing failed by leaving the second line empty, and uses the singular for one', () => {
    const f = listFigures({ ...ZERO, sent: 1, unique_opens: 1, opens: 1 }, on);
    expect(f.sent).toEqual({ text: '1', detail: null, title: '1 email sent, 0 failed' });
    expect(f.opened.title).toBe('1 opened of 1 email sent (100%) · 1 open in all');
  });

  it('shows a dash for every rate before anything was sent', () => {
    const f = listFigures(ZERO, on);
    for (const key of ['opened', 'clicked', 'unsubscribed', 'bounced'] as const) {
      expect(f[key].text, key).toBe('—');
      expect(f[key].detail, key).toBe('0');
    }
    expect(f.opened.title).toBe('0 opened; no email sent yet · 0 opens in all');
  });

  it('shows a dash for opens and clicks while not tracked, but keeps those counted before', () => {
    const none = { ...counts, unique_opens: 0, opens: 0, unique_clicks: 0, clicks: 0 };
    const f = listFigures(none, off);
    expect(f.opened).toEqual({ text: '—', detail: null, title: 'Opens are not tracked' });
    expect(f.clicked).toEqual({ text: '—', detail: null, title: 'Clicks are not tracked' });
    // Unsubscribes and bounces are known without tracking.
    expect(f.unsubscribed.text).toBe('2%');
    const counted = listFigures(counts, off);
    expect(counted.opened.text).toBe('45%');
    expect(listFigures(none, { opens: true, clicks: false }).opened.text).toBe('0%');
    expect(listFigures(none, { opens: true, clicks: false }).clicked.text).toBe('—');
  });
});
