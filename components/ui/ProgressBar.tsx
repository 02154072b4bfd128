// A progress bar: a rounded track with a fill as wide as `percent`, exposed as role=progressbar with
// the caller's name and values (aria-label or aria-labelledby, valuemin/max/now/text). The caller
// keeps its own label and counters around it; the tone colours the fill (brand while running,
// success once done, muted when stopped) and `size` picks the track's height.
import type { AriaAttributes } from 'react';
import styles from './ProgressBar.module.css';

export type ProgressTone = 'brand' | 'success' | 'muted';

type Named =
  | { 'aria-label': string; 'aria-labelledby'?: never }
  | { 'aria-labelledby': string; 'aria-label'?: never };

export type ProgressBarProps = Named & {
  /** Width of the fill, 0–100; values outside are clamped. */
  percent: number;
  tone?: ProgressTone;
  size?: 'md' | 'sm';
  'aria-valuemin'?: number;
  'aria-valuemax': number;
  'aria-valuenow': number;
  'aria-valuetext'?: AriaAttributes['aria-valuetext'];
};

export function ProgressBar({ percent, tone = 'brand', size = 'md', ...aria }: ProgressBarProps) {
  const width = Math.min(100, Math.max(0, percent));
  return (
    <div
      className={`${styles.track} ${styles[size]}`}
      role="progressbar"
      aria-valuemin={0}
      {...aria}
    >
      <div className={`${styles.fill} ${styles[tone]}`} style={{ width: `${width}%` }} />
    </div>
  );
}
