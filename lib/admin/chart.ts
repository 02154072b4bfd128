// Pure geometry of the dashboard's bar chart: a "nice" axis maximum, its ticks, and bar heights.

/** The smallest of 1, 2, 2.5, 5 × 10^n that is ≥ max (at least 4, so a quiet month still has ticks). */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

/** Evenly spaced integer ticks from 0 to `top` (a niceMax), bottom first. */
export function ticks(top: number, count = 4): number[] {
  const step = top / count;
  return Array.from({ length: count + 1 }, (_, i) => Math.round(i * step * 100) / 100);
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Bars for `values` in a plot `width` × `height`, baseline at the bottom. A non-zero value gets at
 * least 2 px so one signup among hundreds is still visible.
 */
export function bars(
  values: number[],
  width: number,
  height: number,
  top: number,
  gap = 0.25,
): Bar[] {
  if (values.length === 0) return [];
  const slot = width / values.length;
  const barWidth = Math.max(1, slot * (1 - gap));
  return values.map((value, i) => {
    const raw = top > 0 ? (Math.max(0, value) / top) * height : 0;
    const h = value > 0 ? Math.max(2, Math.min(height, raw)) : 0;
    return { x: i * slot + (slot - barWidth) / 2, y: height - h, width: barWidth, height: h };
  });
}

/** "2026-11-22" → a Date at local midnight of that calendar day (not UTC midnight). */
export function localDay(isoDate: string): Date {
  const [y, m, d] = isoDate.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}
