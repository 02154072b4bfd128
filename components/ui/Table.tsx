// A data table in the admin's look: a caption (may be visually hidden) and horizontal scroll on
// narrow screens, so columns never squash; the wrapper is focusable so keyboards can scroll it.
import { useId, type ReactNode, type TableHTMLAttributes } from 'react';
import styles from './Table.module.css';

export { styles as tableStyles };

export interface TableProps extends TableHTMLAttributes<HTMLTableElement> {
  caption: ReactNode;
  captionHidden?: boolean;
  /** On phones, stack each row (cells with `tableStyles.full` span it, `data-label` names values). */
  stack?: boolean;
  children: ReactNode;
}

export function Table({ caption, captionHidden, stack, className, children, ...rest }: TableProps) {
  const captionId = useId();
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-labelledby={captionId}>
      <table
        className={[styles.table, stack ? styles.stacked : '', className ?? ''].join(' ').trim()}
        {...rest}
      >
        <caption id={captionId} className={captionHidden ? 'visually-hidden' : styles.caption}>
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}
