// The admin's section links; only pages that exist are listed, the current one is marked.
import Link from 'next/link';
import { useRouter } from 'next/router';
import styles from './AdminLayout.module.css';

export const ADMIN_NAV = [
  { href: '/admin/', label: 'Dashboard' },
  { href: '/admin/subscribers/', label: 'Subscribers' },
  { href: '/admin/lists/', label: 'Lists' },
  { href: '/admin/campaigns/', label: 'Campaigns' },
  { href: '/admin/media/', label: 'Media' },
  { href: '/admin/settings/', label: 'Settings' },
] as const;

/** `/admin/subscribers/view` belongs to Subscribers; `/admin` only to Dashboard. */
export function isCurrent(pathname: string, href: string): boolean {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return href === '/admin/' ? path === '/admin/' : path.startsWith(href);
}

export function AdminNav() {
  const { pathname } = useRouter();
  return (
    <nav className={styles.nav} aria-label="Admin">
      <ul className={styles.navList}>
        {ADMIN_NAV.map((item) => {
          const current = isCurrent(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                className={styles.navLink}
                aria-current={current ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
