// The team: members with role, inviter and joining date, or "Invited" until they first sign in;
// the owner invites (invite-member), resends or revokes an open invite, changes roles and removes
// members. The database keeps the last owner; its refusal is shown on the row.
import { RotateCw, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatDay } from '../../../lib/admin/format';
import type { TeamMember } from '../../../lib/admin/members';
import { useMemberWrites, useMembers } from '../../../lib/admin/use-members';
import { useInvitedIds, useOpenInvites } from '../../../lib/admin/use-team';
import { ROLE_LABELS, type Role } from '../../../lib/roles';
import { useAdmin } from '../AdminContext';
import { InviteForm, ROLE_CHOICES } from './InviteForm';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  ErrorState,
  LoadingState,
  StatusMessage,
  statusTone,
  Table,
  tableStyles,
} from '../../ui';
import styles from './Settings.module.css';

export function TeamCard() {
  const { can, member: me } = useAdmin();
  const members = useMembers();
  const writes = useMemberWrites();
  const invitedIds = useInvitedIds(members.data?.map((m) => m.user_id) ?? null);
  const invites = useOpenInvites();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [revoking, setRevoking] = useState<TeamMember | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const manage = can('manage-team');
  const isInvited = (m: TeamMember) => invitedIds.data?.has(m.user_id) ?? false;
  // Whenever the team is re-read (a role change, a refocus), re-read who has signed in.
  const { mutate: refreshInvited } = invitedIds;
  useEffect(() => {
    if (members.data) void refreshInvited();
  }, [members.data, refreshInvited]);

  const resend = async (m: TeamMember) => {
    setNotice(null);
    const outcome = await invites.run('resend', m.user_id);
    setNotice(
      outcome.ok
        ? { tone: 'success', text: `The invite was sent to ${m.email} again.` }
        : { tone: 'error', text: `${m.email}: ${outcome.message ?? 'The invite was not sent.'}` },
    );
  };
  const revoke = async () => {
    if (!revoking) return;
    const outcome = await invites.run('revoke', revoking.user_id);
    setNotice(
      outcome.ok
        ? { tone: 'success', text: `The invite to ${revoking.email} was revoked.` }
        : { tone: 'error', text: `${revoking.email}: ${outcome.message ?? 'Not revoked.'}` },
    );
    setRevoking(null);
  };

  let body;
  if (members.error && !members.data) {
    body = (
      <ErrorState
        title="The team could not be loaded."
        message={members.error.message}
        onRetry={() => void members.mutate()}
      />
    );
  } else if (!members.data) {
    body = <LoadingState label="Loading the team…" />;
  } else {
    body = (
      <Table caption="Team members" captionHidden className={styles.team}>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col" className={styles.optionalColumn}>
              Invited by
            </th>
            <th scope="col">Joined</th>
            {manage ? (
              <th scope="col" className={styles.actionsHead}>
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {members.data.map((m) => (
            <tr key={m.user_id}>
              <th scope="row">
                <span className={styles.memberEmail}>{m.email}</span>
                {m.user_id === me.user_id ? <span className={styles.you}>(you)</span> : null}
              </th>
              <td>
                {manage ? (
                  <select
                    className={styles.roleSelect}
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={writes.pendingId === m.user_id}
                    onChange={(e) => void writes.setRole(m.user_id, e.target.value as Role)}
                  >
                    {ROLE_CHOICES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </option>
                    ))}
                  </select>
                ) : (
                  <Badge tone={statusTone(m.role)}>{ROLE_LABELS[m.role]}</Badge>
                )}
              </td>
              <td
                className={`${styles.optionalColumn} ${m.invitedByEmail ? '' : tableStyles.muted}`}
              >
                {m.invitedByEmail ?? '—'}
              </td>
              <td className={styles.nowrap}>
                {isInvited(m) ? (
                  <span title={`Invited ${formatDay(m.created_at)}, has not signed in yet`}>
                    <Badge tone="warning">Invited</Badge>
                  </span>
                ) : (
                  <>
                    <span className={styles.mobileLabel}>Joined </span>
                    {formatDay(m.created_at)}
                  </>
                )}
              </td>
              {manage && isInvited(m) ? (
                <td className={tableStyles.actions}>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<RotateCw />}
                    aria-label={`Resend the invite to ${m.email}`}
                    loading={invites.pendingId === m.user_id && revoking === null}
                    disabled={invites.pendingId === m.user_id}
                    onClick={() => void resend(m)}
                  >
                    Resend invite
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<X />}
                    aria-label={`Revoke the invite to ${m.email}`}
                    disabled={invites.pendingId === m.user_id}
                    onClick={() => setRevoking(m)}
                  >
                    Revoke
                  </Button>
                </td>
              ) : manage ? (
                <td className={tableStyles.actions}>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 />}
                    aria-label={`Remove ${m.email}`}
                    disabled={writes.pendingId === m.user_id}
                    onClick={() => setRemoving(m)}
                  >
                    Remove
                  </Button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </Table>
    );
  }

  const rowError =
    writes.error && !removing
      ? `${members.data?.find((m) => m.user_id === writes.error?.userId)?.email ?? 'Member'}: ${writes.error.error.message}`
      : null;

  return (
    <Card title="Team" flush>
      {notice ? (
        <div className={styles.rowError} role="status">
          <StatusMessage tone={notice.tone}>{notice.text}</StatusMessage>
        </div>
      ) : null}
      {rowError ? (
        <div className={styles.rowError}>
          <StatusMessage tone="error">{rowError}</StatusMessage>
        </div>
      ) : null}
      {body}
      {manage ? <InviteForm /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove from team"
        busy={removing !== null && writes.pendingId === removing.user_id}
        error={
          removing && writes.error?.userId === removing.user_id ? writes.error.error.message : null
        }
        onConfirm={() => {
          if (!removing) return;
          void writes.remove(removing.user_id).then((ok) => ok && setRemoving(null));
        }}
        onCancel={() => setRemoving(null)}
      >
        They can no longer open the admin. Their account stays, so the owner can invite them again.
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the invite to ${revoking?.email ?? ''}?`}
        confirmLabel="Revoke invite"
        busy={revoking !== null && invites.pendingId === revoking.user_id}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        The link in their invite stops working and the account made for it is deleted. You can
        invite the address again later.
      </ConfirmDialog>
    </Card>
  );
}
