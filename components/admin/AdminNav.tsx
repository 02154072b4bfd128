// The admin's section links; only pages that exist are listed, the current one is marked. On a
// narrow screen the row scrolls sideways: the current link is scrolled into view, and a faded edge
// shows on each side that has more links.
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import styles from './AdminLayout.module.css';

export const ADMIN_NAV = [
  { href: '/admin/', label: 'Dashboard' },
  { href: '/admin/subscribers/', label: 'Subscribers' },
  { href: '/admin/lists/', label: 'Lists' },
  { href: '/admin/share/', label: 'Share & embed' },
  { href: '/admin/campaigns/', label: 'Campaigns' },
  { href: '/admin/automations/', label: 'Automations' },
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
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ start: false, end: false });

  const measure = useCallback(() => {
    const nav = ref.current;
    if (!nav) return;
    const start = nav.scrollLeft > 1;
    const end = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1;
    setMore((was) => (was.start === start && was.end === end ? was : { start, end }));
  }, []);

  useEffect(() => {
    const nav = ref.current;
    const link = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav && link && nav.scrollWidth > nav.clientWidth) {
      // Centre the current link in the row (only the row scrolls, never the page).
      const navBox = nav.getBoundingClientRect();
      const linkBox = link.getBoundingClientRect();
      nav.scrollLeft += linkBox.left - navBox.left - (navBox.width - linkBox.width) / 2;
    }
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [pathname, measure]);

  return (
    <nav
      ref={ref}
      className={styles.nav}
      aria-label="Admin"
      onScroll={measure}
      data-more-start={more.start || undefined}
      data-more-end={more.end || undefined}
    >
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
