// Frame of every public page: skip link, a small site header (except on the home page, whose hero
// shows the identity), the page's main landmark, and a quiet footer. Identity from `settings`.
import Head from 'next/head';
import type { ReactNode } from 'react';
import { siteTitle } from '../lib/site';
import { usePublicSettings } from '../lib/use-public-settings';
import Logo from './Logo';
import styles from './SiteLayout.module.css';

export default function SiteLayout({
  title,
  children,
  header = true,
}: {
  title?: string;
  children: ReactNode;
  /** False on the home page, where the hero already shows the logo and name. */
  header?: boolean;
}) {
  const { site } = usePublicSettings();
  // While the settings load (or cannot be read) the site has no name to show: no made-up one.
  const fullTitle = siteTitle(title, site.name) || 'Newsletter';
  return (
    <>
      <Head>
        <title>{fullTitle}</title>
        {site.tagline && <meta name="description" content={site.tagline} />}
      </Head>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <div className={styles.page}>
        {header && (
          <header className={styles.header}>
            <a href="/" className={styles.brand} aria-label={site.known ? undefined : 'Home'}>
              {site.known && <Logo size={32} src={site.logoSrc} className={styles.brandLogo} />}
              <span>{site.name}</span>
            </a>
          </header>
        )}
        <main id="main" className={styles.main} tabIndex={-1}>
          {children}
        </main>
        <footer className={styles.footer}>
          {site.known && (
            <>
              <span>© {site.name}</span>
              <span aria-hidden="true" className={styles.separator}>
                ·
              </span>
            </>
          )}
          <span>Unsubscribe from any email with one click.</span>
        </footer>
      </div>
    </>
  );
}
