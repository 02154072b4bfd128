// Frame of every team page: checks the session and membership, then renders the shell (top bar,
// navigation, the member's address and role) and gives children the member through useAdmin().
import { LogOut, ShieldX } from 'lucide-react';
import Head from 'next/head';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { can, ROLE_LABELS, type Permission } from '../../lib/roles';
import { useMember } from '../../lib/use-member';
import { siteTitle } from '../../lib/site';
import { usePublicSettings } from '../../lib/use-public-settings';
import { signOut } from '../../lib/use-session';
import Logo from '../Logo';
import { Badge, Button, EmptyState, ErrorState, LoadingState } from '../ui';
import { AdminContext, useAdmin, type AdminContextValue } from './AdminContext';
import styles from './AdminLayout.module.css';
import { AdminNav } from './AdminNav';

export { useAdmin };

export interface AdminLayoutProps {
  /** The page's h1 and document title. */
  title: string;
  /** Needed to see the page at all; members without it get a "not allowed" message. */
  permission?: Permission;
  /** Buttons beside the h1. */
  actions?: ReactNode;
  children: ReactNode | ((admin: AdminContextValue) => ReactNode);
}

/** `/login/?next=/admin/lists/` for the page being visited. */
export function loginPath(next: string): string {
  return `/login/?next=${encodeURIComponent(next)}`;
}

function useSignOut(): { signingOut: boolean; error: string | null; run: () => void } {
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setSigningOut(true);
    setError(null);
    signOut()
      .then(() => router.replace('/login/'))
      .catch(() => {
        setSigningOut(false);
        setError('Signing out failed. Check your connection and try again.');
      });
  };
  return { signingOut, error, run };
}

function Centered({ title, children }: { title: string; children: ReactNode }) {
  const { site } = usePublicSettings();
  return (
    <>
      <Head>
        <title>{siteTitle(title, site.name ? `${site.name} admin` : 'Admin')}</title>
      </Head>
      <main id="main" className={styles.centered}>
        {children}
      </main>
    </>
  );
}

export default function AdminLayout({ title, permission, actions, children }: AdminLayoutProps) {
  const router = useRouter();
  const state = useMember();
  const { site } = usePublicSettings();
  const out = useSignOut();
  const leaving = useRef(false);
  leaving.current = out.signingOut;

  useEffect(() => {
    if (state.status === 'signed-out' && !leaving.current) {
      void router.replace(loginPath(router.asPath));
    }
  }, [state.status, router]);

  const value = useMemo<AdminContextValue | null>(
    () =>
      state.status === 'member'
        ? { member: state.member, role: state.role, can: (p) => can(state.role, p) }
        : null,
    [state.status, state.member, state.role],
  );

  if (state.status === 'loading' || state.status === 'signed-out') {
    return (
      <Centered title={title}>
        <LoadingState
          label={
            state.status === 'signed-out' ? 'Redirecting to sign in…' : 'Checking your access…'
          }
        />
      </Centered>
    );
  }

  if (state.status === 'error') {
    return (
      <Centered title={title}>
        <div className={styles.gate}>
          <ErrorState
            title="We could not check your access."
            message={state.error.message}
            onRetry={state.retry}
          />
          <Button variant="ghost" icon={<LogOut />} onClick={out.run} loading={out.signingOut}>
            Sign out
          </Button>
        </div>
      </Centered>
    );
  }

  if (state.status === 'no-access') {
    return (
      <Centered title="No access">
        <div className={styles.gate}>
          <span className={styles.gateIcon} aria-hidden="true">
            <ShieldX />
          </span>
          <h1 className={styles.gateTitle}>No access</h1>
          <p className={styles.gateText}>
            You are signed in as <strong>{state.session.user.email}</strong>, but this address is
            not a member of the team. Ask the owner to invite you, then sign in again.
          </p>
          <Button variant="primary" icon={<LogOut />} onClick={out.run} loading={out.signingOut}>
            Sign out
          </Button>
          {out.error ? (
            <p className={styles.gateError} role="alert">
              {out.error}
            </p>
          ) : null}
        </div>
      </Centered>
    );
  }

  const allowed = !permission || (value?.can(permission) ?? false);
  return (
    <AdminContext.Provider value={value}>
      <Head>
        <title>{siteTitle(title, site.name ? `${site.name} admin` : 'Admin')}</title>
      </Head>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <div className={styles.shell}>
        <header className={styles.topbar}>
          <Link href="/admin/" className={styles.brand}>
            <Logo size={28} />
            <span className={styles.siteName}>{site.name || 'Admin'}</span>
          </Link>
          <AdminNav />
          <div className={styles.user}>
            <span className={styles.email} title={state.member.email}>
              {state.member.email}
            </span>
            <Badge tone="brand">{ROLE_LABELS[state.role]}</Badge>
          </div>
          <div className={styles.signout}>
            <Button
              variant="ghost"
              size="sm"
              icon={<LogOut />}
              onClick={out.run}
              loading={out.signingOut}
            >
              Sign out
            </Button>
          </div>
        </header>
        {out.error ? (
          <p className={styles.banner} role="alert">
            {out.error}
          </p>
        ) : null}
        <main id="main" className={styles.main} tabIndex={-1}>
          <div className={styles.pageHead}>
            <h1 className={styles.pageTitle}>{title}</h1>
            {allowed && actions ? <div className={styles.pageActions}>{actions}</div> : null}
          </div>
          {allowed && value ? (
            typeof children === 'function' ? (
              children(value)
            ) : (
              children
            )
          ) : (
            <EmptyState icon={<ShieldX />} title="You do not have permission to see this page.">
              Your role is {ROLE_LABELS[state.role]}. Ask the owner if you need more access.
            </EmptyState>
          )}
        </main>
      </div>
    </AdminContext.Provider>
  );
}
