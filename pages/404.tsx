// Exported as 404.html: what a static host shows for any address that is not a page.
import Link from 'next/link';
import { ArrowLeft } from 'lucide-react';
import SiteLayout from '../components/SiteLayout';
import styles from '../styles/Home.module.css';
import { identityStaticProps } from '../lib/build/public-props';

export default function NotFound() {
  return (
    <SiteLayout title="Page not found">
      <header className={styles.hero}>
        <p className={styles.code}>404</p>
        <h1 className={styles.title}>Page not found</h1>
        <p className={styles.tagline}>The page you were looking for does not exist or has moved.</p>
        <Link href="/" className={styles.back}>
          <ArrowLeft aria-hidden="true" />
          Back to the home page
        </Link>
      </header>
    </SiteLayout>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
