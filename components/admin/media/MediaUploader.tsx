// The media page's upload control: a labelled file input (several images at once), the rules,
// progress of the file being sent, and what was refused.
import { ImageUp } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { IMAGE_ACCEPT } from '../../../lib/admin/media-upload';
import { useMediaBatchUpload } from '../../../lib/admin/use-media';
import { Button, ProgressBar, StatusMessage } from '../../ui';
import styles from './Media.module.css';

export function MediaUploader({ onUploaded }: { onUploaded: (count: number) => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { upload, progress, pending } = useMediaBatchUpload();
  const [errors, setErrors] = useState<string[]>([]);

  async function onFiles(list: FileList | null) {
    const files = Array.from(list ?? []);
    if (input.current) input.current.value = '';
    if (!files.length) return;
    setErrors([]);
    const result = await upload(files);
    setErrors(result.errors);
    if (result.uploaded.length) onUploaded(result.uploaded.length);
  }

  const percent = progress ? Math.round(progress.fraction * 100) : 0;
  return (
    <div className={styles.page}>
      <div className={styles.uploader}>
        <input
          ref={input}
          id={inputId}
          className={styles.fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          aria-describedby={`${inputId}-hint`}
          aria-label="Images to upload"
          onChange={(event) => void onFiles(event.target.files)}
          disabled={pending}
        />
        <Button
          variant="primary"
          icon={<ImageUp />}
          loading={pending}
          onClick={() => input.current?.click()}
        >
          Upload images
        </Button>
        {progress ? (
          <div className={styles.progress}>
            <span id={`${inputId}-progress`}>
              Uploading {progress.name}
              {progress.files > 1 ? ` (${progress.file} of ${progress.files})` : ''}… {percent}%
            </span>
            <ProgressBar
              size="sm"
              aria-labelledby={`${inputId}-progress`}
              aria-valuemax={100}
              aria-valuenow={percent}
              percent={percent}
            />
          </div>
        ) : (
          <p id={`${inputId}-hint`} className={styles.hint}>
            PNG, JPEG, WebP or GIF, at most 5 MB each.
          </p>
        )}
      </div>
      {errors.length ? (
        <StatusMessage tone="error">
          {errors.length === 1
            ? errors[0]
            : `${errors.length} images were not uploaded: ${errors.join('; ')}`}
        </StatusMessage>
      ) : null}
    </div>
  );
}
