// The plain-HTML-form side of subscribe: reads an `application/x-www-form-urlencoded` POST into the
// same input the JSON API takes, and turns the outcome into a 303 to one of the site's own static
// outcome pages. Pure (no Deno globals), so vitest tests it too.
import type { ErrorCode } from '../_shared/errors.ts';

/** The site's outcome pages, each a static page at `/subscribe/<outcome>/`. */
export const FORM_OUTCOMES = [
  'check-inbox',
  'thanks',
  'invalid',
  'too-many',
  'no-list',
  'error',
] as const;
export type FormOutcome = (typeof FORM_OUTCOMES)[number];

/** Whether the request is a browser form post (the only non-JSON body subscribe accepts). */
export function isFormPost(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded';
}

/**
 * The form's fields as the JSON API's body. Only the known fields are read: anything else a form
 * sends (a `redirect`, `next`, `attributes`) is ignored, so a page cannot steer the answer.
 * `list` and `lists` may repeat (a hidden field, or checkboxes); none at all means the main list,
 * fields that are all empty mean "no list chosen", which the input rules refuse.
 */
export function formBody(text: string): Record<string, unknown> {
  const params = new URLSearchParams(text);
  const body: Record<string, unknown> = {};
  const email = params.get('email');
  if (email !== null) body.email = email;
  const name = params.get('name');
  if (name !== null) body.name = name;
  const ref = params.get('ref');
  if (ref !== null) body.ref = ref;
  const website = params.get('website');
  if (website !== null) body.website = website;
  if (params.has('list') || params.has('lists')) {
    body.lists = [...params.getAll('list'), ...params.getAll('lists')]
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
  }
  return body;
}

/** The page a signup's status leads to. */
export function outcomeForStatus(status: 'pending' | 'confirmed'): FormOutcome {
  return status === 'pending' ? 'check-inbox' : 'thanks';
}

/** The page a refusal leads to; anything unexpected is the generic error page. */
export function outcomeForError(code: ErrorCode): FormOutcome {
  switch (code) {
    case 'invalid_email':
    case 'invalid_input':
    case 'payload_too_large':
      return 'invalid';
    case 'rate_limited':
      return 'too-many';
    case 'list_not_found':
      return 'no-list';
    default:
      return 'error';
  }
}

/**
 * The absolute outcome URL: always the configured site URL (POSTBOX_SITE_URL) plus a fixed path,
 * never anything taken from the request, so the form cannot be used as an open redirect.
 */
export function outcomeUrl(siteUrl: string, outcome: FormOutcome): string {
  return `${siteUrl.replace(/\/+$/, '')}/subscribe/${outcome}/`;
}

/** A 303 See Other: the browser follows it with a GET, so a reload never posts the form again. */
export function redirectTo(
  siteUrl: string,
  outcome: FormOutcome,
  headers: Record<string, string> = {},
): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: outcomeUrl(siteUrl, outcome), 'Cache-Control': 'no-store', ...headers },
  });
}
