// Centred card for the sign-in pages (/login/, /auth/callback/): logo, heading, body.
import Head from 'next/head';
import type { ReactNode } from 'react';
import { siteTitle } from '../../lib/site';
import { usePublicSettings } from '../../lib/use-public-settings';
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
  const { site } = usePublicSettings();
  return (
    <>
      <Head>
        <title>{siteTitle(pageTitle, site.name)}</title>
        <meta name="robots" content="noindex" />
      </Head>
      <main id="main" className={styles.page}>
        <div className={styles.card}>
          <div className={styles.brand}>
            <Logo size={40} />
            <span className={styles.siteName}>{site.name}</span>
          </div>
          {title}
          {children}
        </div>
      </main>
    </>
  );
}

export { styles as authStyles };
