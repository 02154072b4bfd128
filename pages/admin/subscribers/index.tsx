// `/admin/subscribers/`: search, filter (kept in the address) and page through subscribers; bulk
// actions, "Add subscriber", CSV import and export.
import AdminLayout from '../../../components/admin/AdminLayout';
import { AddSubscriber } from '../../../components/admin/subscribers/AddSubscriber';
import { SubscribersView } from '../../../components/admin/subscribers/SubscribersView';

export default function SubscribersPage() {
  return (
    <AdminLayout title="Subscribers" actions={<AddSubscriber />}>
      <SubscribersView />
    </AdminLayout>
  );
}
