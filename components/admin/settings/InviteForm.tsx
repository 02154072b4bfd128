// The form on the team card with which the owner invites someone by address and role
// (invite-member); field errors show at their field, others under the form.
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useInviteMember } from '../../../lib/admin/use-members';
import { ROLE_LABELS, ROLES, type Role } from '../../../lib/roles';
import { Button, SelectField, StatusMessage, TextField } from '../../ui';
import styles from './Settings.module.css';

// Highest first in pickers: an owner usually invites admins and editors.
export const ROLE_CHOICES = [...ROLES].reverse();

export function InviteForm() {
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
