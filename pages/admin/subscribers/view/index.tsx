// `/admin/subscribers/view/?id=`: one subscriber (the id comes from the query string: static export).
import { useRouter } from 'next/router';
import AdminLayout from '../../../../components/admin/AdminLayout';
import { SubscriberDetailView } from '../../../../components/admin/subscribers/SubscriberDetailView';
import { LoadingState } from '../../../../components/ui';

export default function SubscriberPage() {
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : '';
  return (
    <AdminLayout title="Subscriber">
      {router.isReady ? <SubscriberDetailView id={id} /> : <LoadingState />}
    </AdminLayout>
  );
}
