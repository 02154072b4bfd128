// The site logo: a preview through next/image (resized by Storage via the custom loader), an
// upload to the media bucket (checked first: type and 5 MB), and removal. Owner only.
import { ImageUp, Trash2 } from 'lucide-react';
import Image from 'next/image';
import { useId, useRef } from 'react';
import { IMAGE_ACCEPT, mediaSrc } from '../../../lib/admin/media-upload';
import { useMediaUpload } from '../../../lib/admin/use-media-upload';
import { Button } from '../../ui';
import styles from './Settings.module.css';

export function LogoField({
  path,
  editable,
  saving,
  error,
  onChange,
}: {
  path: string | null;
  editable: boolean;
  saving: boolean;
  /** A refusal to save the new path. */
  error: string | null;
  onChange: (path: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useMediaUpload('logo');
  const id = useId();
  const message = upload.error ?? error;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const uploaded = await upload.upload(file);
    if (input.current) input.current.value = '';
    if (uploaded) onChange(uploaded);
  };

  return (
    <div className={styles.logoRow} role="group" aria-labelledby={`${id}-label`}>
      <div className={styles.logoFrame}>
        {path ? (
          <Image
            className={styles.logoImage}
            src={mediaSrc(path)}
            width={160}
            height={80}
            alt="Current site logo"
          />
        ) : (
          <span>No logo</span>
        )}
      </div>
      <div className={styles.logoControls}>
        <span id={`${id}-label`} className={styles.hint}>
          <strong>Logo</strong> · PNG, JPEG, WebP or GIF, at most 5 MB. Shown on the home page.
        </span>
        {editable ? (
          <div className={styles.logoButtons}>
            <input
              ref={input}
              id={`${id}-file`}
              className={styles.fileInput}
              type="file"
              accept={IMAGE_ACCEPT}
              aria-label="Logo image file"
              aria-describedby={message ? `${id}-error` : undefined}
              tabIndex={-1}
              onChange={(e) => void choose(e.target.files?.[0])}
            />
            <Button
              icon={<ImageUp />}
              loading={upload.pending || saving}
              onClick={() => input.current?.click()}
            >
              {path ? 'Replace logo' : 'Upload logo'}
            </Button>
            {path ? (
              <Button
                variant="ghost"
                icon={<Trash2 />}
                disabled={upload.pending || saving}
                onClick={() => onChange(null)}
              >
                Remove logo
              </Button>
            ) : null}
          </div>
        ) : null}
        {message ? (
          <p id={`${id}-error`} className={styles.fieldError} role="alert">
            {message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
