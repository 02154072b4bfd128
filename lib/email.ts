// The one email-address rule of Postbox (SPEC §5), shared by the site and the edge functions: no imports, so Deno can load it as is.

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_MAX_LENGTH = 64;

// RFC 5322 dot-atom: runs of atext joined by single dots (no leading, trailing or doubled dot).
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// A DNS label: 1–63 letters, digits or hyphens, not starting or ending with a hyphen.
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^[a-z]{2,63}$/;

export type EmailCheck = { ok: true; email: string } | { ok: false; code: 'invalid_email' };

/** How addresses are stored and compared: trimmed and lower-cased. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

/** Normalises `input` and checks it against SPEC §5; the error code is the catalogue's. */
export function checkEmail(input: unknown): EmailCheck {
  if (typeof input !== 'string') return { ok: false, code: 'invalid_email' };
  const email = normalizeEmail(input);
  return isValidNormalizedEmail(email) ? { ok: true, email } : { ok: false, code: 'invalid_email' };
}

/** True when an already trimmed, lower-cased address satisfies SPEC §5. */
export function isValidNormalizedEmail(email: string): boolean {
  if (email.length > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > EMAIL_LOCAL_MAX_LENGTH || !DOT_ATOM.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return TOP_LEVEL.test(labels[labels.length - 1] ?? '');
}
