// The status filter of /admin/campaigns/: links that keep the filter in the address (?status=).
import Link from 'next/link';
import { CAMPAIGN_FILTERS, type CampaignFilter } from '../../../../lib/admin/campaigns';
import styles from './Campaigns.module.css';

export function StatusTabs({ current }: { current: CampaignFilter }) {
  return (
    <nav aria-label="Filter campaigns by status">
      <ul className={styles.tabs}>
        {CAMPAIGN_FILTERS.map((filter) => (
          <li key={filter.id}>
            <Link
              href={
                filter.id === 'all' ? '/admin/campaigns/' : `/admin/campaigns/?status=${filter.id}`
              }
              className={styles.tab}
              aria-current={filter.id === current ? 'true' : undefined}
              scroll={false}
            >
              {filter.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
