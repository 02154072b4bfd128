// `/admin/settings/emails/`: the subscriber emails' wording (confirmation, already subscribed) with
// preview, test send and reset to default; the welcome is edited in Automations (issue 24).
import AdminLayout from '../../../components/admin/AdminLayout';
import { EmailTemplates } from '../../../components/admin/settings/emails/EmailTemplates';

export default function EmailSettingsPage() {
  return (
    <AdminLayout title="Emails">
      <EmailTemplates />
    </AdminLayout>
  );
}
