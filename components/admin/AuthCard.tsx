// Centred card for the sign-in pages (/login/, /auth/callback/): logo, heading, body.
import Head from 'next/head';
import type { ReactNode } from 'react';
import { SITE_DEFAULTS } from '../../lib/site';
import Logo from '../Logo';
import styles from './AuthCard.module.css';

export function AuthCard({
  title,
  pageTitle,
  children,
}: {
  /** Document title; the heading lives in children so states can swap it and move focus to it. */
  pageTitle: string;
  title?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <Head>
        <title>{`${pageTitle} · ${SITE_DEFAULTS.name}`}</title>
        <meta name="robots" content="noindex" />
      </Head>
      <main id="main" className={styles.page}>
        <div className={styles.card}>
          <div className={styles.brand}>
            <Logo size={40} />
            <span className={styles.siteName}>{SITE_DEFAULTS.name}</span>
          </div>
          {title}
          {children}
        </div>
      </main>
    </>
  );
}

export { styles as authStyles };
