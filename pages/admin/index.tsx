// /admin/: totals by status, signups per day for 30 days, totals by list, a live feed of new signups
// and the recent campaigns. Everything above the fold keeps its final size while it loads.
import { ListPlus, Radio } from 'lucide-react';
import Link from 'next/link';
import { ListCountCells, ListCountHeads } from '../../components/admin/ListCountColumns';
import AdminLayout, { useAdmin } from '../../components/admin/AdminLayout';
import { RecentCampaigns } from '../../components/admin/RecentCampaigns';
import styles from '../../components/admin/Dashboard.module.css';
import { SignupChart, SignupChartPlaceholder } from '../../components/admin/SignupChart';
import { FeedIndicator, SignupFeed } from '../../components/admin/SignupFeed';
import { StatTiles } from '../../components/admin/StatTiles';
import {
  buttonClass,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
  tableStyles,
} from '../../components/ui';
import { countNoun } from '../../lib/admin/format';
import { useDashboardTotals, useSignupsPerDay } from '../../lib/admin/use-dashboard';
import { useSignupFeed } from '../../lib/admin/use-signup-feed';

const SUBSCRIPTION_LABEL = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  unsubscribed: 'Unsubscribed',
} as const;
const SUBSCRIPTION_TONE = {
  confirmed: 'success',
  pending: 'warning',
  unsubscribed: 'neutral',
} as const;

/** Totals in two rows, one unit each: people (addresses) and subscriptions (person × list). */
function Totals() {
  const { data, error, isValidating, mutate } = useDashboardTotals();
  if (error) {
    return (
      <ErrorState
        title="The totals could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  }
  // While loading, the same tiles with dashes and their hints' words: nothing moves when the
  // numbers arrive (issue 22: no layout shift on /admin/).
  const people = data?.subscribers;
  const subscriptions = data?.subscriptions;
  return (
    <div className={styles.totals} aria-busy={!data}>
      <section className={styles.tileRow} aria-labelledby="people-heading">
        <h2 id="people-heading" className={styles.rowTitle}>
          People
        </h2>
        <StatTiles
          label="People"
          stats={[
            {
              label: 'Subscribers',
              value: people?.enabled ?? null,
              hint: countNoun(people?.enabled ?? 0, 'enabled address', 'enabled addresses'),
              tone: 'brand',
            },
            {
              label: 'Blocklisted',
              value: people?.blocklisted ?? null,
              hint: countNoun(
                people?.blocklisted ?? 0,
                'address, never mailed',
                'addresses, never mailed',
              ),
              tone: 'danger',
            },
          ]}
        />
      </section>
      <section className={styles.tileRow} aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading" className={styles.rowTitle}>
          Subscriptions <span className={styles.rowNote}>one per person and list</span>
        </h2>
        <StatTiles
          label="Subscriptions"
          stats={(['confirmed', 'pending', 'unsubscribed'] as const).map((status) => ({
            label: SUBSCRIPTION_LABEL[status],
            value: subscriptions?.[status] ?? null,
            hint: countNoun(subscriptions?.[status] ?? 0, 'subscription', 'subscriptions'),
            tone: SUBSCRIPTION_TONE[status],
          }))}
        />
      </section>
    </div>
  );
}

/** Subscriptions per list, below the chart: its height depends on the number of lists. */
function ListTotals() {
  const { can } = useAdmin();
  const { data, error } = useDashboardTotals();
  // A failed read is reported once, by the totals above.
  if (error) return null;
  return (
    <Card title="By list" flush className={styles.lists}>
      {!data ? (
        <LoadingState label="Loading lists…" />
      ) : data.lists.length === 0 ? (
        <EmptyState
          title="No lists yet."
          action={
            can('manage-lists') ? (
              <Link href="/admin/lists/" className={buttonClass('primary')}>
                <ListPlus aria-hidden="true" width={18} height={18} />
                Create a list
              </Link>
            ) : undefined
          }
        >
          {can('manage-lists')
            ? 'People subscribe to lists. Create one to start collecting signups.'
            : 'People subscribe to lists. An admin can create the first list.'}
        </EmptyState>
      ) : (
        <Table caption="Subscriptions by list" captionHidden stack>
          <thead>
            <tr>
              <th scope="col">List</th>
              <ListCountHeads />
            </tr>
          </thead>
          <tbody>
            {data.lists.map((list) => (
              <tr key={list.id}>
                <th scope="row" className={tableStyles.full}>
                  {list.name}
                </th>
                <ListCountCells list={list} />
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

function Chart() {
  const { data, error, isValidating, mutate } = useSignupsPerDay(30);
  return (
    <Card title="Signups, last 30 days">
      {error ? (
        <ErrorState
          title="The chart could not be loaded."
          message={error.message}
          onRetry={() => void mutate()}
          retrying={isValidating}
        />
      ) : data ? (
        <SignupChart days={data} />
      ) : (
        <SignupChartPlaceholder label="Loading signups…" />
      )}
    </Card>
  );
}

function Feed() {
  const { data, error, isValidating, mutate, status } = useSignupFeed();
  return (
    <Card title="New signups" actions={<FeedIndicator status={status} />} className={styles.feed}>
      {error ? (
        <ErrorState
          title="Recent signups could not be loaded."
          message={error.message}
          onRetry={() => void mutate()}
          retrying={isValidating}
        />
      ) : !data ? (
        <LoadingState label="Loading recent signups…" />
      ) : data.length === 0 ? (
        <EmptyState title="No signups yet." icon={<Radio />}>
          New subscribers appear here the moment they sign up.
        </EmptyState>
      ) : (
        <SignupFeed items={data} />
      )}
    </Card>
  );
}

export default function DashboardPage() {
  return (
    <AdminLayout title="Dashboard">
      <div className={styles.grid}>
        <div className={styles.main}>
          <Totals />
          <Chart />
          <ListTotals />
          <RecentCampaigns />
        </div>
        <Feed />
      </div>
    </AdminLayout>
  );
}
