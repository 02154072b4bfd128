// Signed links (SPEC §9): `<payload>.<signature>`, both base64url, HMAC-SHA256 with
// POSTBOX_TOKEN_SECRET. Confirm links expire after 7 days; unsubscribe and preferences never do.
import { AppError } from './errors.ts';
import { env } from './env.ts';

/** `open` and `click`: the tracking pixel and link redirect of one campaign message (track). */
export type TokenPurpose = 'confirm' | 'unsubscribe' | 'preferences' | 'open' | 'click';

export interface TokenPayload {
  /** What the token is for; a token for one purpose never works for another. */
  p: TokenPurpose;
  /** Subscriber id. */
  s: string;
  /** List ids the token concerns (confirm: the lists of that signup; unsubscribe: those lists, none = all). */
  l?: string[];
  /** Expiry, seconds since the epoch. */
  e?: number;
  /** Single-use nonce (confirm links), checked against the database. */
  n?: string;
  /** Campaign id: the campaign whose email carried the link (unsubscribe, open, click). */
  c?: string;
  /** Click links: SHA-256 (base64url) of the target URL, so only that URL is redirected to. */
  h?: string;
}

export const CONFIRM_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

const encoder = new TextEncoder();
let keyPromise: Promise<CryptoKey> | null = null;

function key(): Promise<CryptoKey> {
  keyPromise ??= crypto.subtle.importKey(
    'raw',
    encoder.encode(env.tokenSecret()),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return keyPromise;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function signToken(payload: TokenPayload): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
  const signature = new Uint8Array(
    await crypto.subtle.sign('HMAC', await key(), encoder.encode(body)),
  );
  return `${body}.${toBase64Url(signature)}`;
}

/** Checks signature, purpose and expiry; throws `token_invalid` (400) or `token_expired` (410). */
export async function verifyToken(
  token: unknown,
  purpose: TokenPurpose,
  now = Date.now(),
): Promise<TokenPayload> {
  if (typeof token !== 'string' || token.length > 2048) throw new AppError('token_invalid');
  const [body, signature, extra] = token.split('.');
  const sigBytes = signature === undefined ? null : fromBase64Url(signature);
  if (!body || !sigBytes || extra !== undefined) throw new AppError('token_invalid');
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify('HMAC', await key(), sigBytes, encoder.encode(body));
  if (!valid) throw new AppError('token_invalid');
  let payload: TokenPayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body) ?? new Uint8Array()));
  } catch {
    throw new AppError('token_invalid');
  }
  if (payload?.p !== purpose || typeof payload.s !== 'string') throw new AppError('token_invalid');
  if (payload.e !== undefined && payload.e * 1000 < now) throw new AppError('token_expired');
  return payload;
}
