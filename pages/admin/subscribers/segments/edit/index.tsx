// `/admin/subscribers/segments/edit/?id=`: one segment's rule editor, or a new one without an id
// (the id comes from the query string: static export). Not keyed by the id: saving a new segment
// puts its id in the address, and the editor stays as it is, with its "Segment saved." note.
import { useRouter } from 'next/router';
import AdminLayout from '../../../../../components/admin/AdminLayout';
import { SegmentEditor } from '../../../../../components/admin/segments/SegmentEditor';
import { LoadingState } from '../../../../../components/ui';

export default function SegmentEditPage() {
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : null;
  return (
    <AdminLayout title={id ? 'Segment' : 'New segment'}>
      {router.isReady ? <SegmentEditor id={id} /> : <LoadingState />}
    </AdminLayout>
  );
}
