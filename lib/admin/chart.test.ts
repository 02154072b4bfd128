// Geometry of the dashboard's signups chart.
import { describe, expect, it } from 'vitest';
import { bars, localDay, niceMax, ticks } from './chart';

describe('niceMax', () => {
  it('keeps a quiet month on a 0–4 axis', () => {
    expect(niceMax(0)).toBe(4);
    expect(niceMax(3)).toBe(4);
    expect(niceMax(Number.NaN)).toBe(4);
  });
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceMax(7)).toBe(10);
    expect(niceMax(11)).toBe(20);
    expect(niceMax(21)).toBe(25);
    expect(niceMax(26)).toBe(50);
    expect(niceMax(100)).toBe(100);
    expect(niceMax(101)).toBe(200);
    expect(niceMax(4321)).toBe(5000);
  });
});

describe('ticks', () => {
  it('splits the axis evenly from 0 to the top', () => {
    expect(ticks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(ticks(25)).toEqual([0, 6.25, 12.5, 18.75, 25]);
    expect(ticks(100)).toEqual([0, 25, 50, 75, 100]);
  });
});

describe('bars', () => {
  it('scales values against the top and stands them on the baseline', () => {
    const [a, b, c] = bars([0, 5, 10], 300, 100, 10, 0);
    expect(a).toEqual({ x: 0, y: 100, width: 100, height: 0 });
    expect(b).toEqual({ x: 100, y: 50, width: 100, height: 50 });
    expect(c).toEqual({ x: 200, y: 0, width: 100, height: 100 });
  });
  it('keeps one signup among thousands visible and never overshoots', () => {
    const [small, big] = bars([1, 5000], 200, 100, 5000);
    expect(small!.height).toBe(2);
    expect(big!.height).toBe(100);
    expect(bars([20], 10, 100, 10)[0]!.height).toBe(100);
  });
  it('centres bars in their slot with the gap split on both sides', () => {
    const [bar] = bars([1], 100, 50, 4, 0.2);
    expect(bar!.width).toBe(80);
    expect(bar!.x).toBe(10);
  });
  it('draws nothing for no days', () => {
    expect(bars([], 100, 100, 4)).toEqual([]);
  });
});

describe('localDay', () => {
  it('is local midnight of the calendar day, whatever the time zone', () => {
    const d = localDay('2026-03-01');
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours()]).toEqual([2026, 2, 1, 0]);
  });
});
