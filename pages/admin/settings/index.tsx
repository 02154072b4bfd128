// `/admin/settings/`: site and sender settings (owner edits, others read) and the team.
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import { SettingsForm } from '../../../components/admin/settings/SettingsForm';
import { PasswordCard } from '../../../components/admin/settings/PasswordCard';
import { DeployHookCard } from '../../../components/admin/settings/DeployHookCard';
import { TeamCard } from '../../../components/admin/settings/TeamCard';
import styles from '../../../components/admin/settings/Settings.module.css';
import Link from 'next/link';
import { Card, ErrorState, LoadingState } from '../../../components/ui';
import { useSettings } from '../../../lib/admin/use-settings';

function SettingsView() {
  const { can } = useAdmin();
  const settings = useSettings();
  let form;
  if (settings.error && !settings.data) {
    form = (
      <ErrorState
        title="The settings could not be loaded."
        message={settings.error.message}
        onRetry={() => void settings.mutate()}
      />
    );
  } else if (!settings.data) {
    // Alone while loading: the cards below appear where they stay, not above a form that would
    // push them down (issue 22: no layout shift).
    return (
      <div className={styles.page}>
        <LoadingState label="Loading settings…" />
      </div>
    );
  } else {
    // The form copies the row once and keeps what the owner types, even when SWR revalidates.
    form = <SettingsForm settings={settings.data} editable={can('manage-settings')} />;
  }
  return (
    <div className={styles.page}>
      {form}
      <Card title="Emails">
        <p>
          The confirmation, welcome and already-subscribed emails subscribers get:{' '}
          <Link href="/admin/settings/emails/">edit their wording, preview and send a test</Link>.
        </p>
      </Card>
      {/* Owner only: it may hold a token, and only the owner can read it. */}
      {can('manage-settings') && <DeployHookCard />}
      <TeamCard />
      <PasswordCard />
    </div>
  );
}

export default function SettingsPage() {
  return (
    <AdminLayout title="Settings">
      <SettingsView />
    </AdminLayout>
  );
}
