// A surface with an optional heading row (title + actions); sections of admin pages sit in cards.
import type { HTMLAttributes, ReactNode } from 'react';
import styles from './Card.module.css';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  /** Heading level of the title (pages have one h1; cards are h2 by default). */
  level?: 2 | 3;
  actions?: ReactNode;
  /** Drops the inner padding, e.g. for a table that runs edge to edge. */
  flush?: boolean;
}

export function Card({
  title,
  level = 2,
  actions,
  flush,
  className,
  children,
  ...rest
}: CardProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={[styles.card, className ?? ''].join(' ').trim()} {...rest}>
      {title || actions ? (
        <div className={styles.head}>
          {title ? <Heading className={styles.title}>{title}</Heading> : <span />}
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      ) : null}
      <div className={flush ? styles.flush : styles.body}>{children}</div>
    </section>
  );
}
