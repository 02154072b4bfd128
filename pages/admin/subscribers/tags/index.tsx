// `/admin/subscribers/tags/`: every tag with its subscribers; create, rename and delete (issue 24).
import AdminLayout from '../../../../components/admin/AdminLayout';
import { TagsView } from '../../../../components/admin/tags/TagsView';

export default function TagsPage() {
  return (
    <AdminLayout title="Tags">
      <TagsView />
    </AdminLayout>
  );
}
