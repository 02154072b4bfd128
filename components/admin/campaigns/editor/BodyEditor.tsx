// The Markdown body with "Insert image" (the media picker) and "Insert merge tag" controls and,
// beside it (below on phones), the live preview. An image goes in at the cursor as
// ![alt](<public URL>), a merge tag as {{ subscriber.first_name | default: "friend" }}.
import { ImagePlus } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import {
  BODY_MAX_BYTES,
  byteLength,
  imageMarkdown,
  insertAt,
  type CampaignForm,
} from '../../../../lib/admin/campaign-editor-form';
import { MERGE_TAGS } from '../../../../lib/email-render/merge-tags';
import { Button, TextArea } from '../../../ui';
import { useAdmin } from '../../AdminLayout';
import styles from './Editor.module.css';
import { MediaPicker } from './MediaPicker';
import { PreviewFrame } from './PreviewFrame';

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
    : `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`;

export function BodyEditor({
  form,
  error,
  readOnly,
  onChange,
}: {
  form: CampaignForm;
  error?: string;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  const { can } = useAdmin();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [picking, setPicking] = useState(false);
  const bytes = byteLength(form.bodyMd);
  const { subject, preheader, fromName, bodyMd } = form;
  // A stable object while these four are unchanged, so the preview re-renders only for them.
  const preview = useMemo(
    () => ({ subject, preheader, fromName, bodyMd }),
    [subject, preheader, fromName, bodyMd],
  );

  function insertImage(alt: string, url: string) {
    const area = textarea.current;
    const start = area?.selectionStart ?? form.bodyMd.length;
    const end = area?.selectionEnd ?? start;
    const next = insertAt(form.bodyMd, start, end, imageMarkdown(alt, url));
    onChange(next.value);
    setPicking(false);
    caretTo(next.caret);
  }

  /** After React has written the new value: the caret after what went in, in view. */
  function caretTo(caret: number) {
    const area = textarea.current;
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(caret, caret);
    });
  }

  function insertTag(tag: string) {
    const area = textarea.current;
    const start = area?.selectionStart ?? form.bodyMd.length;
    const end = area?.selectionEnd ?? start;
    const text = `{{ ${tag} }}`;
    onChange(form.bodyMd.slice(0, start) + text + form.bodyMd.slice(end));
    caretTo(start + text.length);
  }

  return (
    <div className={styles.composeGrid}>
      <div className={styles.writer}>
        {!readOnly ? (
          <div className={styles.toolbar}>
            <Button size="sm" icon={<ImagePlus />} onClick={() => setPicking(true)}>
              Insert image
            </Button>
            <select
              className={styles.tagMenu}
              aria-label="Insert merge tag"
              value=""
              onChange={(e) => {
                if (e.target.value) insertTag(e.target.value);
              }}
            >
              <option value="">Insert merge tag…</option>
              {MERGE_TAGS.map((t) => (
                <option key={t.tag} value={t.tag}>
                  {t.label}
                </option>
              ))}
            </select>
            <span className={styles.toolbarHint}>
              Markdown: **bold**, _italic_, [link](url). Liquid: {'{{ subscriber.name }}'}
            </span>
          </div>
        ) : null}
        <TextArea
          ref={textarea}
          label="Body (Markdown)"
          value={form.bodyMd}
          onChange={(e) => onChange(e.target.value)}
          error={error}
          hint={`${size(bytes)} of ${size(BODY_MAX_BYTES)}. Raw HTML is allowed; scripts, styles and event handlers are removed.`}
          readOnly={readOnly}
          spellCheck
          className={styles.markdown}
        />
      </div>
      <PreviewFrame input={preview} />
      {!readOnly ? (
        <MediaPicker
          open={picking}
          canUpload={can('upload-media')}
          onClose={() => setPicking(false)}
          onPick={insertImage}
        />
      ) : null}
    </div>
  );
}
