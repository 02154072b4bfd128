// `/`: the site's name, tagline and logo with the signup form (SPEC §2).
import Logo from '../components/Logo';
import SignupForm from '../components/SignupForm';
import SiteLayout from '../components/SiteLayout';
import { SITE_DEFAULTS } from '../lib/site';
import styles from '../styles/Home.module.css';

export default function Home() {
  return (
    <SiteLayout>
      <header className={styles.hero}>
        <Logo className={styles.logo} size={60} />
        <h1 className={styles.title}>{SITE_DEFAULTS.name}</h1>
        <p className={styles.tagline}>{SITE_DEFAULTS.tagline}</p>
      </header>
      <section className={styles.card} aria-labelledby="signup-heading">
        <h2 id="signup-heading" className={styles.cardTitle}>
          Get the newsletter
        </h2>
        <SignupForm />
      </section>
    </SiteLayout>
  );
}
