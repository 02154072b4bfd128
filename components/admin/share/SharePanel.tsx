// Share & embed for one public list: the options (button text, theme), the live preview, the
// subscribe link with its QR code, the iframe snippet and the no-JavaScript form snippet.
import { useState } from 'react';
import { SUPABASE_URL } from '../../../lib/config';
import { Card, SelectField, TextField } from '../../ui';
import {
  DEFAULT_BUTTON_TEXT,
  EMBED_THEMES,
  MAX_BUTTON_TEXT,
  parseButtonText,
  type EmbedTheme,
} from '../../embed/options';
import CopyBlock from './CopyBlock';
import EmbedPreview from './EmbedPreview';
import QrCode from './QrCode';
import { embedUrl, formSnippet, iframeSnippet, subscribeLink } from './snippets';
import styles from './Share.module.css';

export interface ShareList {
  slug: string;
  name: string;
}

const THEME_LABELS: Record<EmbedTheme, string> = {
  auto: 'Auto (follows the visitor’s system)',
  light: 'Light',
  dark: 'Dark',
};

export default function SharePanel({ list }: { list: ShareList }) {
  // The site's own address: this admin runs on it, so links and snippets point here. Read in the
  // first render (the panel only mounts in the browser, once the lists are in), so the QR code and
  // the preview are there from the start instead of pushing the embed card down a frame later
  // (CLS 0.08 at 390 px).
  const [origin] = useState(() => (typeof window === 'undefined' ? '' : window.location.origin));
  const [buttonText, setButtonText] = useState(DEFAULT_BUTTON_TEXT);
  const [theme, setTheme] = useState<EmbedTheme>('auto');
  const options = { list: list.slug, buttonText: parseButtonText(buttonText), theme };
  const link = subscribeLink(origin, list.slug);

  return (
    <>
      <Card title="Subscribe link">
        <div className={styles.linkRow}>
          <div className={styles.grow}>
            <CopyBlock
              label="Link to the signup form"
              value={link}
              hint={`Opens the home page with ${list.name} ticked. Share it anywhere.`}
            />
          </div>
          {origin ? (
            <figure className={styles.qr}>
              <QrCode value={link} label={`QR code of ${link}`} />
              <figcaption>Scan to subscribe</figcaption>
            </figure>
          ) : null}
        </div>
      </Card>

      <Card title="Embed on another site">
        <div className={styles.embedGrid}>
          <div className={styles.options}>
            <TextField
              label="Button text"
              value={buttonText}
              maxLength={MAX_BUTTON_TEXT}
              onChange={(e) => setButtonText(e.target.value)}
              hint={`At most ${MAX_BUTTON_TEXT} characters; empty means “${DEFAULT_BUTTON_TEXT}”.`}
            />
            <SelectField
              label="Theme"
              value={theme}
              onChange={(e) => setTheme(e.target.value as EmbedTheme)}
            >
              {EMBED_THEMES.map((t) => (
                <option key={t} value={t}>
                  {THEME_LABELS[t]}
                </option>
              ))}
            </SelectField>
            <CopyBlock
              label="Iframe snippet"
              rows={8}
              value={iframeSnippet(origin, options, list.name)}
              hint="Paste it where the form should appear. The script makes the frame exactly as tall as the form; it only accepts sizes from this site."
            />
            <CopyBlock
              label="Plain HTML form (works without JavaScript)"
              rows={8}
              value={formSnippet(`${SUPABASE_URL}/functions/v1/subscribe`, options, list.name)}
              hint="A form in your own page’s style. After sending, visitors land on this site’s thank-you or error page."
            />
          </div>
          <div className={styles.previewBox}>
            <p className={styles.label} id="embed-preview-label">
              Live preview
            </p>
            {origin ? (
              <EmbedPreview
                src={embedUrl(origin, options)}
                title={`Preview of the signup form for ${list.name}`}
              />
            ) : null}
          </div>
        </div>
      </Card>
    </>
  );
}
