// The document the editor's preview iframe shows: the sanitised body in a 600 px mail column with
// the subject and preheader above it, locked down by a CSP so nothing in it can load or run.
import { renderCampaignPreviewHtml } from '../campaign-preview';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface PreviewInput {
  subject: string;
  preheader: string;
  fromName: string;
  bodyMd: string;
}

const STYLE = `
  html { background: #f4f4f7; }
  body { margin: 0; padding: 16px 12px 32px; font: 16px/1.6 -apple-system, 'Segoe UI', Roboto,
    Helvetica, Arial, sans-serif; color: #1f2330; }
  .head { max-width: 600px; margin: 0 auto 12px; font-size: 13px; color: #5a5f73; }
  .head strong { display: block; color: #1f2330; font-size: 15px; overflow-wrap: anywhere; }
  .mail { max-width: 600px; margin: 0 auto; background: #fff; border-radius: 8px;
    padding: 24px; box-shadow: 0 1px 3px rgba(0,0,0,.08); overflow-wrap: anywhere; }
  .mail > :first-child { margin-top: 0; }
  .mail > :last-child { margin-bottom: 0; }
  a { color: #4338ca; }
  img { max-width: 100%; height: auto; }
  pre { overflow-x: auto; background: #f4f4f7; padding: 12px; border-radius: 6px; }
  blockquote { margin: 0; padding-left: 12px; border-left: 3px solid #d6d8e1; color: #4a4f63; }
  table { border-collapse: collapse; } th, td { border: 1px solid #d6d8e1; padding: 4px 8px; }
  .empty { color: #6b7089; font-style: italic; }
`;

/** A full HTML document for `<iframe srcdoc sandbox>`. */
export function previewDocument(input: PreviewInput): string {
  const html = renderCampaignPreviewHtml(input.bodyMd);
  const body = html || '<p class="empty">The body is empty. Write Markdown on the left.</p>';
  const subject = input.subject.trim() || '(no subject)';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src http: https:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head><body>
<div class="head">${input.fromName.trim() ? `${escape(input.fromName.trim())} · ` : ''}${escape(
    input.preheader,
  )}<strong>${escape(subject)}</strong></div>
<div class="mail">${body}</div>
</body></html>`;
}
