// /auth/callback/: finishes the sign-in an emailed link started, then goes on to `next`.
import { CircleAlert } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { AuthCard, authStyles as styles } from '../../../components/admin/AuthCard';
import { buttonClass, LoadingState } from '../../../components/ui';
import { completeSignIn, SignInError } from '../../../lib/use-session';

export default function AuthCallbackPage() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Once only: a PKCE code can be exchanged a single time (React's strict mode runs effects twice).
    if (started.current) return;
    started.current = true;
    completeSignIn(window.location.href)
      .then((next) => router.replace(next))
      .catch((e: unknown) => {
        setError(e instanceof SignInError ? e.message : 'Signing in failed. Try again.');
      });
  }, [router]);

  useEffect(() => {
    if (error) headingRef.current?.focus();
  }, [error]);

  if (error) {
    return (
      <AuthCard pageTitle="Sign-in failed">
        <div className={styles.center}>
          <span className={styles.iconBad} aria-hidden="true">
            <CircleAlert />
          </span>
          <h1 className={styles.title} ref={headingRef} tabIndex={-1}>
            We could not sign you in
          </h1>
          <p className={styles.note} role="alert">
            {error}
          </p>
          <Link href="/login/" className={buttonClass('primary')}>
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard pageTitle="Signing in">
      <h1 className="visually-hidden">Signing in</h1>
      <LoadingState label="Signing you in…" />
    </AuthCard>
  );
}
