// The track function's answers: `?t=` alone is the open pixel (a 1×1 transparent GIF), `?t=&u=`
// a click (302 to `u` only when the token was signed for exactly that URL). Both record an
// event through record_tracking_event (a campaign's message) or record_automation_tracking_event
// (an automation step's), which write only while the matching setting is on, so
// links in old messages keep working after tracking is switched off.
import { rpc } from '../_shared/db.ts';
import { CORS_HEADERS } from '../_shared/http.ts';
import {
  isMachineUserAgent,
  readTrackToken,
  type TrackToken,
} from '../_shared/campaign-tracking.ts';

/** A transparent 1×1 GIF (42 bytes). */
const PIXEL = Uint8Array.from(
  atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  (c) => c.charCodeAt(0),
);

/**
 * Every open should reach us, and the token must not leak to the target site as a Referer; CORS
 * as on every function answer (SPEC §7).
 */
const ANSWER_HEADERS = {
  ...CORS_HEADERS,
  'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0, private',
  Pragma: 'no-cache',
  Expires: '0',
  'Referrer-Policy': 'no-referrer',
};

export async function handleTrack(req: Request): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const token = readTrackToken(params.get('t'), params.get('u'));
  await record(token, req.headers.get('user-agent'));
  if (token.kind === 'click') {
    return new Response(null, {
      status: 302,
      headers: { ...ANSWER_HEADERS, Location: token.url! },
    });
  }
  return new Response(PIXEL, {
    status: 200,
    headers: {
      ...ANSWER_HEADERS,
      'Content-Type': 'image/gif',
      'Content-Length': String(PIXEL.length),
    },
  });
}

/**
 * Records the event for the campaign or the automation step the token names; a failure is logged
 * and the reader still gets the image or the page.
 */
async function record(token: TrackToken, userAgent: string | null): Promise<void> {
  const event = {
    p_type: token.kind === 'open' ? 'opened' : 'clicked',
    p_subscriber: token.subscriberId,
    p_data: token.kind === 'open' ? { machine: isMachineUserAgent(userAgent) } : { url: token.url },
  };
  try {
    if ('campaignId' in token.source)
      await rpc('record_tracking_event', { ...event, p_campaign: token.source.campaignId });
    else await rpc('record_automation_tracking_event', { ...event, p_step: token.source.stepId });
  } catch (error) {
    console.error('recording a tracking event failed', error);
  }
}
