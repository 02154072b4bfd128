// web-version (issue 21): "view in browser". GET ?token= (signed for one campaign, the same link in
// every reader's email) → the email as nobody's copy — defaults, no reader's links or values — as
// JSON {subject, preheader, html, text, sent_at}. The site's /web/ page shows it in a sandboxed
// iframe: hosted Supabase serves a function's text/html as text/plain (SPEC §10).
import { adminClient } from '../_shared/db.ts';
import { AppError } from '../_shared/errors.ts';
import { json, serve } from '../_shared/http.ts';
import { anonymousRendering, loadMailSettings } from '../_shared/campaign-mail.ts';
import { verifyToken } from '../_shared/tokens.ts';
import { isUuid } from '../../../lib/uuid.ts';

/** A campaign whose send has started; a draft's or a scheduled one's web version is not out yet. */
const STARTED = ['sending', 'paused', 'sent', 'cancelled'];

serve(['GET'], async (req) => {
  const payload = verifyToken(new URL(req.url).searchParams.get('token'), 'web');
  if (!isUuid(payload.c)) throw new AppError('token_invalid');
  // Service role: the campaign is read by its signed id, whether or not it is in the archive.
  const { data, error } = await adminClient()
    .from('campaigns')
    .select('id, subject, preheader, body_md, status, started_at')
    .eq('id', payload.c)
    .maybeSingle();
  if (error) throw new AppError('internal');
  if (!data || !STARTED.includes(data.status) || !data.started_at)
    throw new AppError('not_found', 'This email is not available.');
  const rendered = anonymousRendering(data, await loadMailSettings());
  return json({
    subject: rendered.subject,
    preheader: rendered.preheader,
    html: rendered.html,
    text: rendered.text,
    sent_at: data.started_at,
  });
});
