// `/admin/subscribers/segments/`: the saved segments (issue 24).
import AdminLayout from '../../../../components/admin/AdminLayout';
import { NewSegmentLink, SegmentsView } from '../../../../components/admin/segments/SegmentsView';

export default function SegmentsPage() {
  return (
    <AdminLayout title="Segments" actions={<NewSegmentLink />}>
      <SegmentsView />
    </AdminLayout>
  );
}
