// /admin/waitlists/?list=<slug>: run a waitlist — everyone in line in rank order (the place the
// public page shows), a search, Let in (admins and owners) of the top N or the people ticked, and
// the waitlist's reward milestones.
// Places update live on the waitlist's public topic.
import { DoorOpen, Radio } from 'lucide-react';
import { useRouter } from 'next/router';
import { useEffect, useState } from 'react';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import styles from '../../../components/admin/ListsPage.module.css';
import { LetInDialog } from '../../../components/admin/waitlists/LetInDialog';
import { RewardsCard } from '../../../components/admin/waitlists/RewardsCard';
import { WaitlistTable } from '../../../components/admin/waitlists/WaitlistTable';
import {
  Button,
  Card,
  EmptyState,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  TextField,
} from '../../../components/ui';
import { formatCount } from '../../../lib/admin/format';
import { useLists } from '../../../lib/admin/use-lists';
import {
  useLetIn,
  useWaitlistRanking,
  WAITLIST_PAGE_SIZE,
} from '../../../lib/admin/use-waitlist-admin';
import { useRewards } from '../../../lib/admin/waitlist-rewards';

function WaitlistsContent() {
  const router = useRouter();
  const { can } = useAdmin();
  const canLetIn = can('manage-subscribers');
  const lists = useLists();
  const waitlists = (lists.data ?? []).filter((l) => l.waitlist);
  const slug = typeof router.query.list === 'string' ? router.query.list : null;
  const current = waitlists.find((l) => l.slug === slug) ?? waitlists[0] ?? null;
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [letting, setLetting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const ranking = useWaitlistRanking(current, search.trim(), page);
  const { letIn, pending } = useLetIn();
  // The line and the rewards card below it appear together once both have answered, so the card
  // is not pushed down when the table replaces "Loading the line…" (CLS 0.017 at 390 px). Later
  // reads (a search, another page) only change the table.
  const rewards = useRewards(current?.id ?? null);
  const answered = Boolean(ranking.data || ranking.error) && Boolean(rewards.data || rewards.error);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (answered) setSettled(true);
  }, [answered]);

  if (lists.error) {
    return (
      <ErrorState
        title="The lists could not be loaded."
        message={lists.error.message}
        onRetry={() => void lists.mutate()}
      />
    );
  }
  if (!lists.data) return <LoadingState label="Loading waitlists…" />;
  if (!current) {
    return (
      <EmptyState title="No waitlists yet.">
        Turn on “Waitlist” for a list on the Lists page to rank its subscribers here.
      </EmptyState>
    );
  }

  if (!answered && !settled) return <LoadingState label="Loading the line…" />;

  const data = ranking.data;
  const pages = data ? Math.max(1, Math.ceil(data.matches / WAITLIST_PAGE_SIZE)) : 1;
  let body;
  if (ranking.error && !data) {
    body = (
      <ErrorState
        title="The waitlist could not be loaded."
        message={ranking.error.message}
        onRetry={() => void ranking.mutate()}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading the line…" />;
  } else if (data.rows.length === 0) {
    body = (
      <EmptyState title={search ? 'Nobody in line matches.' : 'Nobody is in line yet.'}>
        {search
          ? 'Try part of an email address or a name.'
          : 'People appear here once they confirm their address.'}
      </EmptyState>
    );
  } else {
    body = (
      <WaitlistTable
        rows={data.rows}
        selectable={canLetIn}
        chosen={chosen}
        onToggle={(id) =>
          setChosen((was) => {
            const next = new Set(was);
            if (!next.delete(id)) next.add(id);
            return next;
          })
        }
      />
    );
  }

  return (
    <div className={styles.page}>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      {!canLetIn ? (
        <StatusMessage tone="info">
          You can view the line. Admins and owners can let people in.
        </StatusMessage>
      ) : null}
      <div className={styles.badges}>
        {waitlists.length > 1 ? (
          <SelectField
            label="Waitlist"
            value={current.slug}
            onChange={(e) => {
              setPage(0);
              setChosen(new Set());
              void router.replace({ query: { list: e.target.value } });
            }}
          >
            {waitlists.map((l) => (
              <option key={l.id} value={l.slug}>
                {l.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField
          label="Search the line"
          type="search"
          placeholder="Email or name"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
        />
      </div>
      <Card
        title={`${current.name}: ${data ? formatCount(data.total) : '…'} in line`}
        actions={
          canLetIn ? (
            <Button
              variant="primary"
              icon={<DoorOpen />}
              disabled={!data || data.total === 0}
              onClick={() => {
                setNotice(null);
                setLetting(true);
              }}
            >
              {chosen.size > 0 ? `Let in ${formatCount(chosen.size)} selected` : 'Let in…'}
            </Button>
          ) : null
        }
        flush
      >
        <p className={styles.description}>
          <Radio aria-hidden="true" size={14} /> Places update live.{' '}
          {current.waitlist_order === 'joined'
            ? 'In the order people confirmed, moved up by the rewards they reached.'
            : 'More referrals go first; with as many, whoever confirmed earlier.'}
          {data && search ? ` ${formatCount(data.matches)} match “${search.trim()}”.` : ''}
        </p>
        {body}
        {data && pages > 1 ? (
          <p>
            <Button size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>{' '}
            Page {page + 1} of {pages}{' '}
            <Button size="sm" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </p>
        ) : null}
      </Card>
      <RewardsCard list={current} editable={canLetIn} />
      {canLetIn && data ? (
        <LetInDialog
          open={letting}
          waitlist={current}
          targets={(lists.data ?? []).filter((l) => l.id !== current.id)}
          chosen={[...chosen]}
          inLine={data.total}
          busy={pending}
          onClose={() => setLetting(false)}
          onLetIn={async (targetId, who, emails) => {
            const outcome = await letIn(current.id, targetId, who, emails);
            if (!outcome.ok) return outcome.message;
            if (outcome.campaignId) {
              // The access email is written in the campaign editor, which says who it goes to.
              await router.push(
                `/admin/campaigns/edit/?id=${outcome.campaignId}&let_in=${outcome.count}`,
              );
              return null;
            }
            const target = lists.data?.find((l) => l.id === targetId)?.name ?? 'the list';
            setNotice(
              `${formatCount(outcome.count)} let in to ${target}.${emails.welcome ? ` ${welcomeNotice(outcome.welcomeEnrolled)}` : ''}`,
            );
            setChosen(new Set());
            setLetting(false);
            return null;
          }}
        />
      ) : null}
    </div>
  );
}

export default function WaitlistsPage() {
  return (
    <AdminLayout title="Waitlists">
      <WaitlistsContent />
    </AdminLayout>
  );
}

/** What a Let in that asked for the welcome did with it (the welcome is an automation, issue 24). */
function welcomeNotice(enrolled: number): string {
  return enrolled > 0
    ? `${formatCount(enrolled)} enrolled in its welcome automation, which sends the welcome now.`
    : 'No welcome was sent: nobody new joined the list, or its welcome automation is paused or deleted.';
}
