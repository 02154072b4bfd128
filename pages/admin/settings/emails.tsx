// `/admin/settings/emails/`: the subscriber emails' wording (confirmation, welcome, already
// subscribed) with preview, test send and reset to default.
import AdminLayout from '../../../components/admin/AdminLayout';
import { EmailTemplates } from '../../../components/admin/settings/emails/EmailTemplates';

export default function EmailSettingsPage() {
  return (
    <AdminLayout title="Emails">
      <EmailTemplates />
    </AdminLayout>
  );
}
