// Per-request database context: who the caller is (from the bearer JWT) and the GUCs PostgREST sets.
import type { Queryable, Statement } from '../db/types.js';
import type { HeaderSource } from '../gateway/plain.js';
import { verifyJwt, type JwtClaims } from '../keys.js';
import { jwtError, RestError } from './errors.js';

export interface Caller {
  role: string;
  claims: JwtClaims;
}

/**
 * Verifies `Authorization: Bearer …` (the gateway has already turned API keys into JWTs).
 * No Authorization at all means the anonymous role, as PostgREST with `db-anon-role` does.
 */
export async function callerFromRequest(headers: HeaderSource): Promise<Caller> {
  const header = headers.get('authorization');
  if (!header) return { role: 'anon', claims: { role: 'anon' } };
  const match = /^bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw jwtError('PGRST301', 'Invalid Authorization header: Bearer token expected');
  }
  const token = match[1]!;
  const cached = verified.get(token);
  if (cached && (cached.exp === undefined || (cached.exp + SKEW_SECONDS) * 1000 > Date.now()))
    return callerOf(cached);
  const result = await verifyJwt(token, { clockToleranceSeconds: SKEW_SECONDS });
  if (!result.ok) {
    if (result.reason === 'expired') throw jwtError('PGRST303', 'JWT expired');
    // jose's wording for a future `nbf`; PostgREST v13+ answers it as a claims error.
    if (/^"nbf" claim timestamp check failed$/.test(result.message)) {
      throw jwtError('PGRST303', 'JWT not yet valid');
    }
    throw jwtError('PGRST301', result.message);
  }
  const iat = result.claims.iat;
  if (typeof iat === 'number' && iat > Date.now() / 1000 + SKEW_SECONDS) {
    throw jwtError('PGRST303', 'JWT issued at future');
  }
  // Verified tokens are remembered (until they expire) so a busy client pays for HMAC once, as
  // PostgREST's JWT cache does.
  if (verified.size >= 1000) verified.clear();
  verified.set(token, result.claims);
  return callerOf(result.claims);
}

const verified = new Map<string, JwtClaims>();

/**
 * PostgREST's `allowedSkewSeconds` (Auth/Jwt.hs checkForErrors): a token still counts for 30 s
 * after its `exp`, and from 30 s before its `nbf` or `iat`.
 */
const SKEW_SECONDS = 30;

function callerOf(claims: JwtClaims): Caller {
  return { role: typeof claims.role === 'string' ? claims.role : 'anon', claims };
}

function cookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

export interface ContextOptions {
  schema: string;
  extraSearchPath: string[];
  caller: Caller;
  method: string;
  /** Path as PostgREST sees it, without the /rest/v1 prefix (e.g. `/todos`). */
  path: string;
  headers: HeaderSource;
  /** A zone knownTimezone accepted. */
  timezone?: string;
  /** Roles known to the schema cache → whether `authenticator` may switch to them. */
  switchableRoles: ReadonlyMap<string, boolean>;
  /**
   * Settings to apply, later ones winning: authenticator's role settings, the caller role's, then
   * an rpc's hoisted function settings (e.g. statement_timeout).
   */
  roleSettings: Array<[string, string]>;
}

/**
 * PostgREST connects as `authenticator` and can only switch to roles it is a member of; the
 * emulator connects as a superuser, so that limit is checked here (Postgres's own 42501 text).
 * `switchable` comes from the schema cache; a role it does not know is looked up.
 */
async function checkRoleSwitch(
  db: Queryable,
  role: string,
  switchable: ReadonlyMap<string, boolean>,
) {
  let allowed = switchable.get(role);
  if (allowed === undefined) {
    const { rows } = await db.query<{ allowed: boolean | null }>(
      `select case when exists (select 1 from pg_roles where rolname = $1)
        then pg_has_role('authenticator', $1, 'member') end as allowed`,
      [role],
    );
    allowed = rows[0]?.allowed ?? undefined;
  }
  if (allowed === false)
    throw new RestError(403, '42501', `permission denied to set role "${role}"`);
}

/**
 * `Prefer: timezone=…` if Postgres knows the zone (pg_timezone_names), as PostgREST checks it;
 * an unknown zone is ignored (so not echoed in Preference-Applied), or PGRST122 with handling=strict.
 */
export async function knownTimezone(
  db: Queryable,
  timezone: string | undefined,
  strict: boolean,
): Promise<string | undefined> {
  if (!timezone) return undefined;
  const { rows } = await db.query<{ ok: boolean }>(
    `select exists (select 1 from pg_timezone_names where name = $1) as ok`,
    [timezone],
  );
  if (rows[0]?.ok) return timezone;
  if (strict) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: timezone=${timezone}`,
    );
  }
  return undefined;
}

/**
 * The transaction-local settings of contract §1.5 / §6.7 as one statement, for the request's
 * transaction to run right after BEGIN (with its first query, see Db.transaction). The checks that
 * need the database (a role the schema cache does not know) run first, outside it.
 */
export async function contextSetup(db: Queryable, opts: ContextOptions): Promise<Statement> {
  await checkRoleSwitch(db, opts.caller.role, opts.switchableRoles);
  const timezone = opts.timezone;
  const headers: Record<string, string> = {};
  opts.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const searchPath = [opts.schema, ...opts.extraSearchPath.filter((s) => s !== opts.schema)]
    .map((s) => `"${s.replace(/"/g, '""')}"`)
    .join(', ');
  // Evaluated left to right: role settings (the caller role's after authenticator's, so a name
  // both set keeps the caller's), then set_config('role', …) — SET LOCAL ROLE; an unknown role
  // fails with 22023 (→ 401) — and the request GUCs. GET/HEAD are read-only through
  // `begin read only` (Db.transaction's readOnly), as PostgREST opens them.
  const settings = new Map<string, string>([['search_path', searchPath]]);
  for (const [name, value] of opts.roleSettings) {
    settings.delete(name);
    settings.set(name, value);
  }
  settings.set('role', opts.caller.role);
  settings.set('request.jwt.claims', JSON.stringify(opts.caller.claims));
  settings.set('request.method', opts.method);
  settings.set('request.path', opts.path);
  settings.set('request.headers', JSON.stringify(headers));
  settings.set('request.cookies', JSON.stringify(cookies(opts.headers.get('cookie'))));
  if (timezone) settings.set('timezone', timezone);
  const params: string[] = [];
  const calls: string[] = [];
  for (const [name, value] of settings) {
    params.push(name, value);
    calls.push(`set_config($${params.length - 1}, $${params.length}, true)`);
  }
  return { sql: `select ${calls.join(', ')}`, params };
}
