// `/admin/subscribers/`: search, filter (kept in the address) and page through subscribers; bulk
// actions, "Add subscriber", CSV import and export; links to the tags and the segments (issue 24).
import { Filter, Tags } from 'lucide-react';
import Link from 'next/link';
import AdminLayout from '../../../components/admin/AdminLayout';
import { AddSubscriber } from '../../../components/admin/subscribers/AddSubscriber';
import { SubscribersView } from '../../../components/admin/subscribers/SubscribersView';
import { buttonClass } from '../../../components/ui';

export default function SubscribersPage() {
  return (
    <AdminLayout
      title="Subscribers"
      actions={
        <>
          <Link href="/admin/subscribers/tags/" className={buttonClass()}>
            <Tags aria-hidden="true" width={18} height={18} />
            Tags
          </Link>
          <Link href="/admin/subscribers/segments/" className={buttonClass()}>
            <Filter aria-hidden="true" width={18} height={18} />
            Segments
          </Link>
          <AddSubscriber />
        </>
      }
    >
      <SubscribersView />
    </AdminLayout>
  );
}
