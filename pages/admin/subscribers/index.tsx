// `/admin/subscribers/`: search, filter and page through subscribers; bulk actions and "Add subscriber".
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
