// /admin/media/: the images of the public media bucket — editors upload (with progress), everyone
// on the team copies a URL, admins delete (the bucket's storage policies decide the same).
import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import AdminLayout, { useAdmin } from '../../../components/admin/AdminLayout';
import { MediaGrid } from '../../../components/admin/media/MediaGrid';
import styles from '../../../components/admin/media/Media.module.css';
import { MediaUploader } from '../../../components/admin/media/MediaUploader';
import {
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingState,
  StatusMessage,
} from '../../../components/ui';
import type { MediaItem } from '../../../lib/admin/media';
import { useMedia, useMediaDelete } from '../../../lib/admin/use-media';
import { roleRank } from '../../../lib/roles';
import { useConfirmedDelete } from '../../../lib/admin/use-confirmed-delete';

function MediaContent() {
  const { can, role } = useAdmin();
  const canUpload = can('upload-media');
  // Storage policy "Admins delete media": admins and owners only.
  const canDelete = roleRank(role) >= roleRank('admin');
  const { data, error, isValidating, mutate } = useMedia();
  const remove = useMediaDelete();
  const [notice, setNotice] = useState<string | null>(null);
  const deletion = useConfirmedDelete(
    (item: MediaItem) => remove(item.path),
    (deleted: MediaItem) => setNotice(`Image “${deleted.name}” deleted.`),
  );
  const deleting = deletion.target;

  let body;
  if (error) {
    body = (
      <ErrorState
        title="The images could not be loaded."
        message={error.message}
        onRetry={() => void mutate()}
        retrying={isValidating}
      />
    );
  } else if (!data) {
    body = <LoadingState label="Loading images…" />;
  } else if (data.length === 0) {
    body = (
      <EmptyState title="No images yet." icon={<ImageOff />}>
        {canUpload
          ? 'Upload images here to use them in campaigns and on the site. Each gets a public URL.'
          : 'An editor can upload the first image.'}
      </EmptyState>
    );
  } else {
    body = (
      <MediaGrid
        items={data}
        canDelete={canDelete}
        onDelete={(item) => {
          setNotice(null);
          deletion.ask(item);
        }}
      />
    );
  }

  return (
    <div className={styles.page}>
      {notice ? <StatusMessage tone="success">{notice}</StatusMessage> : null}
      {canUpload ? (
        <Card>
          <MediaUploader
            onUploaded={(count) =>
              setNotice(count === 1 ? 'Image uploaded.' : `${count} images uploaded.`)
            }
          />
        </Card>
      ) : (
        <StatusMessage tone="info">
          You can view and copy images. Editors, admins and owners can upload them.
        </StatusMessage>
      )}
      <Card title={data ? `Images (${data.length})` : 'Images'} flush>
        {body}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete image?'}
        confirmLabel="Delete image"
        busy={deletion.busy}
        error={deletion.error}
        onCancel={deletion.cancel}
        onConfirm={() => void deletion.confirm()}
      >
        <p>
          The image is removed for good. Emails already sent and pages that show it will show a
          broken image instead.
        </p>
      </ConfirmDialog>
    </div>
  );
}

export default function MediaPage() {
  return (
    <AdminLayout title="Media">
      <MediaContent />
    </AdminLayout>
  );
}
