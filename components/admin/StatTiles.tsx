// The dashboard's headline numbers: a row of labelled figures (a description list).
import styles from './StatTiles.module.css';
import { formatCount } from '../../lib/admin/format';

export interface Stat {
  label: string;
  /** null while loading: the tile keeps its final size and shows a dash. */
  value: number | null;
  hint?: string;
  tone?: 'brand' | 'success' | 'warning' | 'danger' | 'neutral';
}

export function StatTiles({ stats, label }: { stats: Stat[]; label: string }) {
  return (
    <dl className={styles.tiles} aria-label={label}>
      {stats.map((s) => (
        <div key={s.label} className={`${styles.tile} ${styles[s.tone ?? 'neutral']}`}>
          <dt className={styles.label}>{s.label}</dt>
          {s.value === null ? (
            <dd className={`${styles.value} ${styles.pending}`}>
              <span aria-hidden="true">—</span>
              <span className="visually-hidden">Loading</span>
            </dd>
          ) : (
            <dd className={styles.value}>{formatCount(s.value)}</dd>
          )}
          {s.hint ? <dd className={styles.hint}>{s.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
