// /admin/: totals by status and list, signups per day for 30 days, a live feed of new signups, and
// the recent campaigns.
import { ListPlus, Radio } from 'lucide-react';
import Link from 'next/link';
import { ListCountCells, ListCountHeads } from '../../components/admin/ListCountColumns';
import AdminLayout, { useAdmin } from '../../components/admin/AdminLayout';
import { RecentCampaigns } from '../../components/admin/RecentCampaigns';
import styles from '../../components/admin/Dashboard.module.css';
import { SignupChart } from '../../components/admin/SignupChart';
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
  const { can } = useAdmin();
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
  if (!data) return <LoadingState label="Loading totals…" />;
  return (
    <>
      <div className={styles.totals}>
        <section className={styles.tileRow} aria-labelledby="people-heading">
          <h2 id="people-heading" className={styles.rowTitle}>
            People
          </h2>
          <StatTiles
            label="People"
            stats={[
              {
                label: 'Subscribers',
                value: data.subscribers.enabled,
                hint: countNoun(data.subscribers.enabled, 'enabled address', 'enabled addresses'),
                tone: 'brand',
              },
              {
                label: 'Blocklisted',
                value: data.subscribers.blocklisted,
                hint: countNoun(
                  data.subscribers.blocklisted,
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
              value: data.subscriptions[status],
              hint: countNoun(data.subscriptions[status], 'subscription', 'subscriptions'),
              tone: SUBSCRIPTION_TONE[status],
            }))}
          />
        </section>
      </div>
      <Card title="By list" flush className={styles.lists}>
        {data.lists.length === 0 ? (
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
    </>
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
        <LoadingState label="Loading signups…" />
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
          <RecentCampaigns />
        </div>
        <Feed />
      </div>
    </AdminLayout>
  );
}
