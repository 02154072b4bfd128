// Exported as 404.html: what a static host shows for any address that is not a page.
import { ArrowLeft } from 'lucide-react';
import SiteLayout from '../components/SiteLayout';
import styles from '../styles/Home.module.css';

export default function NotFound() {
  return (
    <SiteLayout title="Page not found">
      <header className={styles.hero}>
        <p className={styles.code}>404</p>
        <h1 className={styles.title}>Page not found</h1>
        <p className={styles.tagline}>The page you were looking for does not exist or has moved.</p>
        <a href="/" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          Back to the home page
        </a>
      </header>
    </SiteLayout>
  );
}

// No getStaticProps here: with `trailingSlash` a 404 page that has it is exported as
// 404/index.html, and static hosts (and scripts/serve-static.ts) serve 404.html for misses.
