// What every auth handler receives: database, settings, mailer, and request helpers.
import { isIP } from 'node:net';
import type { AuthSettings } from '../config.js';
import type { Db } from '../db/types.js';
import type { GatewayContext } from '../gateway/types.js';
import type { Mailer } from '../mail/mailer.js';
import { errors } from './errors.js';
import type { ClientInfo, SessionSettings } from './sessions.js';

export interface AuthContext {
  db: Db;
  settings: AuthSettings;
  session: SessionSettings;
  /** `${url}/auth/v1`: issuer and base of email links. */
  authUrl: string;
  mailer: Mailer;
  log: (message: string, err?: unknown) => void;
}

export interface AuthRequest {
  req: Request;
  url: URL;
  /** Path below /auth/v1, e.g. `/admin/users/…`. */
  path: string;
  gateway: GatewayContext;
}

export type Handler = (ctx: AuthContext, r: AuthRequest) => Promise<Response>;

export function json(r: AuthRequest, status: number, body: unknown, extra?: HeadersInit): Response {
  const headers = new Headers(extra);
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { status, headers });
}

/** The JSON body as an object; `{}` for an empty body, 400 bad_json for anything unparsable. */
export async function readBody(r: AuthRequest): Promise<Record<string, unknown>> {
  const text = await r.req.text();
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.badJson();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.badJson();
  return parsed as Record<string, unknown>;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function obj(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function clientInfo(r: AuthRequest): ClientInfo {
  const forwarded = r.req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  // Strip an IPv4-mapped prefix so the value fits `inet` the same way on both backends, and
  // drop anything that is not an address (the header is client-controlled).
  const ip = (forwarded || r.gateway.remoteAddress || '').replace(/^::ffff:/, '');
  return { userAgent: r.req.headers.get('user-agent'), ip: isIP(ip) ? ip : null };
}

/** `redirect_to` travels as a query parameter from supabase-js; some callers put it in the body. */
export function requestedRedirect(r: AuthRequest, body?: Record<string, unknown>): string | null {
  return r.url.searchParams.get('redirect_to') ?? str(body?.redirect_to) ?? null;
}
