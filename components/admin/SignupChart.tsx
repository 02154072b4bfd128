// Signups per day as an SVG bar chart, with a text summary for screen readers and the same
// numbers as a table one click away.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { bars, localDay, niceMax, ticks } from '../../lib/admin/chart';
import type { DaySignups } from '../../lib/admin/use-dashboard';
import { LoadingState, tableStyles } from '../ui';
import styles from './SignupChart.module.css';

const DEFAULT_WIDTH = 720;
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

const SHORT = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const LONG = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'long',
});

export function chartSummary(days: DaySignups[]): string {
  if (days.length === 0) return 'No days to show.';
  const total = days.reduce((n, d) => n + d.signups, 0);
  const first = SHORT.format(localDay(days[0]!.day));
  const last = SHORT.format(localDay(days[days.length - 1]!.day));
  if (total === 0) return `No signups between ${first} and ${last}.`;
  const busiest = days.reduce((a, b) => (b.signups > a.signups ? b : a));
  return `${total} signup${total === 1 ? '' : 's'} between ${first} and ${last}; the busiest day was ${LONG.format(localDay(busiest.day))} with ${busiest.signups}.`;
}

// Measured before the first paint in the browser (the static export renders on the server too,
// where a layout effect would only warn), so a phone never sees the desktop height first.
const useBeforePaint = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/** The element's width in CSS pixels, so the chart draws at 1:1 and its labels keep their size. */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useBeforePaint(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.max(240, Math.round(el.getBoundingClientRect().width)));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(240, Math.round(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** The chart's drawing height for its width: shorter on phones. */
const chartHeight = (width: number) => (width < 480 ? 180 : 220);

/**
 * What the chart's card shows while the numbers load: the chart's own height and the line of its
 * table toggle, so the loaded chart takes exactly this space and nothing around it moves.
 */
export function SignupChartPlaceholder({ label }: { label: string }) {
  const [wrapRef, width] = useWidth<HTMLDivElement>();
  return (
    <div className={styles.wrap}>
      <div ref={wrapRef} className={styles.placeholder} style={{ height: chartHeight(width) }}>
        <LoadingState label={label} />
      </div>
      <p className={styles.placeholderToggle} aria-hidden="true">
        Show as a table
      </p>
    </div>
  );
}

export function SignupChart({ days }: { days: DaySignups[] }) {
  const titleId = useId();
  const descId = useId();
  const [wrapRef, WIDTH] = useWidth<HTMLDivElement>();
  const HEIGHT = chartHeight(WIDTH);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const top = niceMax(Math.max(0, ...days.map((d) => d.signups)));
  const rects = bars(
    days.map((d) => d.signups),
    plotW,
    plotH,
    top,
  );
  // About one date per 80 px; the last day is always labelled, so skip a label that would touch it.
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(plotW / 80))));
  const labelled = (i: number) =>
    i === days.length - 1 || (i % labelEvery === 0 && days.length - 1 - i >= labelEvery * 0.75);

  return (
    <div className={styles.wrap}>
      <div ref={wrapRef}>
        <svg
          className={styles.svg}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
        >
          <title id={titleId}>Signups per day</title>
          <desc id={descId}>{chartSummary(days)}</desc>
          <g transform={`translate(${PAD.left} ${PAD.top})`}>
            {ticks(top).map((t) => {
              const y = plotH - (t / top) * plotH;
              return (
                <g key={t} aria-hidden="true">
                  <line className={styles.grid} x1={0} x2={plotW} y1={y} y2={y} />
                  <text className={styles.axis} x={-8} y={y} dy="0.32em" textAnchor="end">
                    {t}
                  </text>
                </g>
              );
            })}
            {rects.map((r, i) => {
              const day = days[i]!;
              return (
                <g key={day.day}>
                  <rect
                    className={styles.bar}
                    x={r.x}
                    y={r.y}
                    width={r.width}
                    height={r.height}
                    rx={Math.min(3, r.width / 3)}
                  >
                    <title>{`${LONG.format(localDay(day.day))}: ${day.signups}`}</title>
                  </rect>
                  {labelled(i) ? (
                    <text
                      aria-hidden="true"
                      className={styles.axis}
                      x={r.x + r.width / 2}
                      y={plotH + 18}
                      textAnchor={i === days.length - 1 ? 'end' : i === 0 ? 'start' : 'middle'}
                    >
                      {SHORT.format(localDay(day.day))}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <details className={styles.details}>
        <summary>Show as a table</summary>
        <div
          className={styles.tableScroll}
          tabIndex={0}
          role="region"
          aria-label="Signups per day, as a table"
        >
          <table className={tableStyles.table}>
            <caption className="visually-hidden">Signups per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className={tableStyles.num}>
                  Signups
                </th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <th scope="row">{LONG.format(localDay(d.day))}</th>
                  <td className={tableStyles.num}>{d.signups}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
