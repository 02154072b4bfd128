// Frame of every public page: skip link, the page's main landmark, and a quiet footer.
import Head from 'next/head';
import type { ReactNode } from 'react';
import { SITE_DEFAULTS } from '../lib/site';
import styles from './SiteLayout.module.css';

export default function SiteLayout({ title, children }: { title?: string; children: ReactNode }) {
  const fullTitle = title ? `${title} · ${SITE_DEFAULTS.name}` : SITE_DEFAULTS.name;
  return (
    <>
      <Head>
        <title>{fullTitle}</title>
        <meta name="description" content={SITE_DEFAULTS.tagline} />
      </Head>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <div className={styles.page}>
        <main id="main" className={styles.main}>
          {children}
        </main>
        <footer className={styles.footer}>
          <span>© {SITE_DEFAULTS.name}</span>
          <span aria-hidden="true" className={styles.separator}>
            ·
          </span>
          <span>Unsubscribe from any email with one click.</span>
        </footer>
      </div>
    </>
  );
}
