// The team: members with role, inviter and joining date; the owner invites (invite-member), changes
// roles and removes members. The database keeps the last owner; its refusal is shown on the row.
import { Send, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { formatDay } from '../../../lib/admin/format';
import type { TeamMember } from '../../../lib/admin/members';
import { useInviteMember, useMemberWrites, useMembers } from '../../../lib/admin/use-members';
import { ROLE_LABELS, ROLES, type Role } from '../../../lib/roles';
import { useAdmin } from '../AdminContext';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  ErrorState,
  LoadingState,
  SelectField,
  StatusMessage,
  statusTone,
  Table,
  tableStyles,
  TextField,
} from '../../ui';
import styles from './Settings.module.css';

// Highest first in pickers: an owner usually invites admins and editors.
const ROLE_CHOICES = [...ROLES].reverse();

function InviteForm() {
  const { invite, pending } = useInviteMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [error, setError] = useState<{ field: 'email' | 'role' | null; message: string } | null>(
    null,
  );
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSent(null);
    const outcome = await invite(email, role);
    if (outcome.ok) {
      setSent(`${outcome.member.email} was invited as ${ROLE_LABELS[outcome.member.role]}.`);
      setEmail('');
    } else {
      setError({ field: outcome.field, message: outcome.message });
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Invite a member">
      <div className={styles.invite}>
        <TextField
          label="Invite by email"
          type="email"
          autoComplete="off"
          value={email}
          error={error?.field === 'email' ? error.message : null}
          onChange={(e) => setEmail(e.target.value)}
        />
        <SelectField
          label="Role"
          value={role}
          error={error?.field === 'role' ? error.message : null}
          onChange={(e) => setRole(e.target.value as Role)}
        >
          {ROLE_CHOICES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </SelectField>
        <Button
          type="submit"
          variant="primary"
          icon={<Send />}
          loading={pending}
          className={styles.inviteButton}
        >
          Send invite
        </Button>
      </div>
      {error && error.field === null ? (
        <div className={styles.rowError}>
          <StatusMessage tone="error">{error.message}</StatusMessage>
        </div>
      ) : null}
      {sent ? (
        <div className={styles.rowError}>
          <StatusMessage tone="success">{sent}</StatusMessage>
        </div>
      ) : null}
    </form>
  );
}

export function TeamCard() {
  const { can, member: me } = useAdmin();
  const members = useMembers();
  const writes = useMemberWrites();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const manage = can('manage-team');

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
                <span className={styles.mobileLabel}>Joined </span>
                {formatDay(m.created_at)}
              </td>
              {manage ? (
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
    </Card>
  );
}
