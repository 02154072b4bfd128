// The media library as a grid of cards: the image (through next/image and the Storage loader),
// name, size and date, "Copy URL" with a confirmation, and delete for those allowed.
import { Check, Copy, Trash2 } from 'lucide-react';
import Image from 'next/image';
import { useEffect, useState } from 'react';
import { formatDay } from '../../../lib/admin/format';
import type { MediaItem } from '../../../lib/admin/media';
import { Button } from '../../ui';
import styles from './Media.module.css';

/** "1.2 MB", "34 KB", "512 B". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (or an old browser): select the text in a hidden field instead.
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.appendChild(field);
    field.select();
    const ok = document.execCommand('copy');
    field.remove();
    return ok;
  }
}

export function MediaGrid({
  items,
  canDelete,
  onDelete,
}: {
  items: MediaItem[];
  canDelete: boolean;
  onDelete: (item: MediaItem) => void;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const [copyFailed, setCopyFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(item: MediaItem) {
    const ok = await copyText(item.publicUrl);
    setCopied(ok ? item.path : null);
    setCopyFailed(ok ? null : item.path);
  }

  return (
    <ul className={styles.grid} aria-label="Images">
      {items.map((item, index) => (
        <li key={item.path} className={styles.item}>
          <div className={styles.thumb}>
            <Image
              src={item.publicUrl}
              alt={item.name}
              fill
              sizes="(max-width: 640px) 50vw, 260px"
              priority={index < 4}
            />
          </div>
          <div className={styles.info}>
            <p className={styles.name} title={item.name}>
              {item.name}
            </p>
            <p className={styles.meta}>
              {formatBytes(item.size)} ·{' '}
              <time dateTime={item.createdAt}>{formatDay(item.createdAt)}</time>
            </p>
            <div className={styles.actions}>
              <Button
                size="sm"
                variant="ghost"
                icon={copied === item.path ? <Check /> : <Copy />}
                onClick={() => void copy(item)}
                aria-label={
                  copied === item.path ? `URL of ${item.name} copied` : `Copy URL of ${item.name}`
                }
              >
                <span className={copied === item.path ? styles.copied : undefined}>
                  {copied === item.path ? 'Copied' : 'Copy URL'}
                </span>
              </Button>
              {canDelete ? (
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<Trash2 />}
                  onClick={() => onDelete(item)}
                  aria-label={`Delete ${item.name}`}
                >
                  Delete
                </Button>
              ) : null}
            </div>
            <span role="status" className="visually-hidden">
              {copied === item.path ? `URL of ${item.name} copied.` : ''}
            </span>
            {copyFailed === item.path ? (
              <label className={styles.meta}>
                Copying is blocked here; copy the URL from this field:
                <input
                  className={styles.urlField}
                  readOnly
                  value={item.publicUrl}
                  onFocus={(event) => event.target.select()}
                  autoFocus
                />
              </label>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
