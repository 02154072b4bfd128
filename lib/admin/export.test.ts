// Unit tests for the export's progress line and its progress reports.
import { describe, expect, it } from 'vitest';
import { exportProgressView, withReportedRows, type ExportState } from './export';

describe('exportProgressView', () => {
  it('shows the share of the matching rows written so far', () => {
    expect(exportProgressView(350_000, 1_000_000)).toEqual({
      text: '350,000 of 1,000,000 rows',
      percent: 35,
    });
    expect(exportProgressView(999_999, 1_000_000).percent).toBe(99);
  });

  it('says what it can without a report or a count, and never passes 100 %', () => {
    expect(exportProgressView(null, 1_000_000)).toEqual({
      text: 'Preparing 1,000,000 rows…',
      percent: 0,
    });
    expect(exportProgressView(null, null)).toEqual({ text: 'Preparing the CSV…', percent: null });
    expect(exportProgressView(5_000, null)).toEqual({ text: '5,000 rows written', percent: null });
    // Subscribers added since the table counted them.
    expect(exportProgressView(15_000, 12_000)).toEqual({
      text: '15,000 rows written',
      percent: null,
    });
  });
});

describe('withReportedRows', () => {
  const running = (rows: number | null): ExportState => ({ status: 'pending', rows });

  it('takes the rows of a report while the export runs, rising only', () => {
    expect(withReportedRows(running(null), { rows: 5_000 })).toEqual(running(5_000));
    expect(withReportedRows(running(5_000), { rows: 15_000 })).toEqual(running(15_000));
    // An earlier report arriving late keeps the bar where it is.
    const later = running(15_000);
    expect(withReportedRows(later, { rows: 10_000 })).toBe(later);
    expect(withReportedRows(later, { rows: 15_000 })).toBe(later);
  });

  it('never turns a finished, failed or idle export back into a running one', () => {
    const ready: ExportState = {
      status: 'ready',
      result: { url: 'https://example.com/x.csv', rows: 20_000, expiresIn: 3600 },
    };
    const failed: ExportState = { status: 'error', message: 'no' };
    const idle: ExportState = { status: 'idle' };
    for (const state of [ready, failed, idle]) {
      expect(withReportedRows(state, { rows: 20_000 })).toBe(state);
    }
  });

  it('ignores payloads without a row count', () => {
    const state = running(5_000);
    for (const payload of [
      undefined,
      null,
      'rows',
      {},
      { rows: '10000' },
      { rows: -1 },
      { rows: 1.5 },
    ]) {
      expect(withReportedRows(state, payload)).toBe(state);
    }
  });
});
