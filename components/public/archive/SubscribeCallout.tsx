// The archive's call to action: the signup form lives on the home page, one click away.
import { ArrowRight } from 'lucide-react';
import publicStyles from '../Public.module.css';
import styles from './Archive.module.css';

export default function SubscribeCallout({
  title,
  text,
  siteName,
}: {
  title: string;
  text: string;
  siteName: string;
}) {
  return (
    <aside
      className={styles.callout}
      aria-label={siteName ? `Subscribe to ${siteName}` : 'Subscribe'}
    >
      <h2 className={styles.calloutTitle}>{title}</h2>
      {text && <p className={styles.calloutText}>{text}</p>}
      <a href="/" className={publicStyles.button}>
        Subscribe
        <ArrowRight aria-hidden="true" />
      </a>
    </aside>
  );
}
