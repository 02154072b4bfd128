// "Insert image": the images of the media bucket as thumbnails (next/image through the Storage
// loader) and an upload of a new one (png/jpeg/webp/gif ≤ 5 MB); choosing one and an alt text
// hands its absolute public URL to the editor.
import { ImageUp } from 'lucide-react';
import Image from 'next/image';
import { useEffect, useId, useRef, useState } from 'react';
import { IMAGE_ACCEPT, mediaSrc } from '../../../../lib/admin/media-upload';
import { useMedia, useMediaLibraryUpload, type MediaItem } from '../../../../lib/admin/use-media';
import { Button, Dialog, EmptyState, ErrorState, LoadingState, TextField } from '../../../ui';
import styles from './Editor.module.css';

const altFrom = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' ');

export function MediaPicker({
  open,
  canUpload,
  onClose,
  onPick,
}: {
  open: boolean;
  canUpload: boolean;
  onClose: () => void;
  onPick: (alt: string, url: string) => void;
}) {
  const media = useMedia();
  const upload = useMediaLibraryUpload();
  const [chosen, setChosen] = useState<MediaItem | null>(null);
  const [alt, setAlt] = useState('');
  const [pendingPath, setPendingPath] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const { reset } = upload;

  useEffect(() => {
    if (!open) return;
    setChosen(null);
    setAlt('');
    reset();
  }, [open, reset]);

  // An upload is chosen as soon as the refreshed list holds it.
  useEffect(() => {
    if (!pendingPath || !media.data) return;
    const item = media.data.find((m) => m.path === pendingPath);
    if (item) {
      setChosen(item);
      setAlt(altFrom(item.name));
      setPendingPath(null);
    }
  }, [pendingPath, media.data]);

  async function onFile(file: File | undefined) {
    if (!file) return;
    const path = await upload.upload(file);
    if (fileInput.current) fileInput.current.value = '';
    if (path) setPendingPath(path);
  }

  let grid;
  if (media.error && !media.data) {
    grid = (
      <ErrorState
        title="The images could not be loaded."
        message={media.error.message}
        onRetry={() => void media.mutate()}
        retrying={media.isValidating}
      />
    );
  } else if (!media.data) {
    grid = <LoadingState label="Loading images…" />;
  } else if (media.data.length === 0) {
    grid = (
      <EmptyState title="No images yet.">
        {canUpload ? 'Upload one above.' : 'An editor can upload the first one.'}
      </EmptyState>
    );
  } else {
    grid = (
      <ul className={styles.mediaGrid} aria-label="Images in the media library">
        {media.data.map((item) => (
          <li key={item.path}>
            <button
              type="button"
              className={styles.mediaItem}
              aria-pressed={chosen?.path === item.path}
              onClick={() => {
                setChosen(item);
                setAlt(altFrom(item.name));
              }}
            >
              <Image
                src={mediaSrc(item.path)}
                alt=""
                width={160}
                height={120}
                className={styles.mediaThumb}
              />
              <span className={styles.mediaName}>{item.name}</span>
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Dialog
      open={open}
      title="Insert image"
      onClose={onClose}
      busy={upload.pending}
      footer={
        <>
          <Button onClick={onClose} disabled={upload.pending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            disabled={!chosen}
            onClick={() => chosen && onPick(alt.trim(), chosen.publicUrl)}
          >
            Insert image
          </Button>
        </>
      }
    >
      <div className={styles.picker} data-dialog-body>
        {canUpload ? (
          <div className={styles.uploadRow}>
            <input
              ref={fileInput}
              id={fileId}
              type="file"
              accept={IMAGE_ACCEPT}
              className="visually-hidden"
              aria-label="Image file to upload"
              tabIndex={-1}
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
            <Button
              icon={<ImageUp />}
              loading={upload.pending}
              onClick={() => fileInput.current?.click()}
              aria-describedby={upload.error ? `${fileId}-error` : `${fileId}-hint`}
              data-autofocus
            >
              Upload image
            </Button>
            {upload.error ? (
              <p id={`${fileId}-error`} className={styles.fieldError} role="alert">
                {upload.error}
              </p>
            ) : (
              <p id={`${fileId}-hint`} className={styles.hintText}>
                PNG, JPEG, WebP or GIF, at most 5 MB.
              </p>
            )}
          </div>
        ) : null}
        {grid}
        <TextField
          label="Alt text"
          hint={
            chosen
              ? `Describes ${chosen.name} for people who cannot see it.`
              : 'Choose an image first.'
          }
          value={alt}
          disabled={!chosen}
          onChange={(e) => setAlt(e.target.value)}
          maxLength={200}
        />
      </div>
    </Dialog>
  );
}
