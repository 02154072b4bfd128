// MFA with TOTP (GoTrue mfa.go): enrol, challenge, verify (the session becomes aal2 with a `totp`
// amr entry), unenrol, and the admin API's factor list and delete. Phone and WebAuthn factors
// are off, as the CLI's defaults leave them (upstream's 422).
import type { Queryable } from '../../db/types.js';
import { clientInfo, json, readBody, str, type AuthContext, type Handler } from '../context.js';
import { AuthError, errors } from '../errors.js';
import { requireAdmin, requireUser } from '../principal.js';
import { upgradeSession } from '../sessions.js';
import { newTotpSecret, qrSvg, totpUri, totpValid } from '../totp.js';
import { isoTime } from '../users.js';

// GoTrue's defaults: a challenge lives 300 s; an unverified factor older than 300 s is dropped.
const CHALLENGE_EXPIRY_S = 300;
const MAX_VERIFIED_FACTORS = 10;

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  created_at: string;
  updated_at: string;
  secret: string | null;
  last_challenged_at: string | null;
}

const iso = (t: string | null) => isoTime(t) ?? null;

/** GoTrue's Factor JSON (friendly_name omitted when empty; the secret never). */
export function factorJson(f: FactorRow) {
  return {
    id: f.id,
    created_at: iso(f.created_at),
    updated_at: iso(f.updated_at),
    status: f.status,
    friendly_name: f.friendly_name || undefined,
    factor_type: f.factor_type,
    phone: '',
    last_challenged_at: iso(f.last_challenged_at),
  };
}

export async function factorsOf(q: Queryable, userId: string): Promise<FactorRow[]> {
  return (
    await q.query<FactorRow>(
      'select * from auth.mfa_factors where user_id = $1 order by created_at',
      [userId],
    )
  ).rows;
}

const factorNotFound = () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found');

/** The caller's own factor named by the path (`/factors/{id}…`). */
async function ownFactor(q: Queryable, userId: string, path: string): Promise<FactorRow> {
  const id = path.split('/')[2] ?? '';
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw factorNotFound();
  const row = (await q.query<FactorRow>('select * from auth.mfa_factors where id = $1', [id]))
    .rows[0];
  if (!row || row.user_id !== userId) throw factorNotFound();
  return row;
}

async function sessionAal(q: Queryable, sessionId: string | null): Promise<string> {
  if (!sessionId) return 'aal1';
  const row = (
    await q.query<{ aal: string | null }>(
      'select aal::text as aal from auth.sessions where id = $1',
      [sessionId],
    )
  ).rows[0];
  return row?.aal ?? 'aal1';
}

function checkTotpType(type: string | undefined): void {
  // Phone and WebAuthn factors are off, as the CLI's `[auth.mfa.phone]`/`[auth.mfa.web_authn]`
  // enroll_enabled default: upstream's 422 (mfa.go EnrollFactor).
  if (type === 'phone') {
    throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  }
  if (type === 'webauthn') {
    throw new AuthError(
      422,
      'mfa_webauthn_enroll_not_enabled',
      'MFA enroll is disabled for WebAuthn',
    );
  }
  if (type !== 'totp') throw errors.validation('factor_type needs to be totp, phone, or webauthn');
}

export const enroll: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const { user, sessionId } = await requireUser(r.req, ctx.db);
  const type = str(body.factor_type);
  checkTotpType(type);
  if (!ctx.settings.mfa.totpEnroll) {
    throw new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
  }
  const friendlyName = str(body.friendly_name) ?? '';
  const issuer = str(body.issuer) || new URL(ctx.settings.siteUrl).host;
  const factor = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified'
         and created_at < now() - interval '300 seconds'`,
      [user.id],
    );
    const factors = await factorsOf(tx, user.id);
    if (factors.some((f) => (f.friendly_name ?? '') === friendlyName)) {
      throw new AuthError(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    }
    const verified = factors.filter((f) => f.status === 'verified').length;
    if (factors.length >= ctx.settings.mfa.maxEnrolledFactors || verified >= MAX_VERIFIED_FACTORS) {
      throw new AuthError(
        422,
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    if (verified > 0 && (await sessionAal(tx, sessionId)) !== 'aal2') {
      throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    const secret = newTotpSecret();
    const id = crypto.randomUUID();
    await tx.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
         updated_at, secret) values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [id, user.id, friendlyName, secret],
    );
    return { id, secret };
  });
  const uri = totpUri(issuer, user.email ?? '', factor.secret);
  return json(r, 200, {
    id: factor.id,
    type: 'totp',
    friendly_name: friendlyName,
    totp: { qr_code: qrSvg(uri), secret: factor.secret, uri },
  });
};

export const challenge: Handler = async (ctx, r) => {
  await readBody(r);
  const { user } = await requireUser(r.req, ctx.db);
  const factor = await ownFactor(ctx.db, user.id, r.path);
  const id = crypto.randomUUID();
  const row = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
         values ($1, $2, now(), $3::inet)`,
      [id, factor.id, clientInfo(r).ip ?? '127.0.0.1'],
    );
    await tx.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [
      factor.id,
    ]);
    return (
      await tx.query<{ expires_at: number }>(
        `select extract(epoch from created_at)::bigint + ${CHALLENGE_EXPIRY_S} as expires_at
           from auth.mfa_challenges where id = $1`,
        [id],
      )
    ).rows[0]!;
  });
  return json(r, 200, { id, type: factor.factor_type, expires_at: Number(row.expires_at) });
};

export const verify: Handler = async (ctx, r) => {
  const body = await readBody(r);
  const { user, sessionId } = await requireUser(r.req, ctx.db);
  const factor = await ownFactor(ctx.db, user.id, r.path);
  if (!ctx.settings.mfa.totpVerify) {
    throw new AuthError(
      422,
      'mfa_totp_verify_not_enabled',
      'MFA verification is disabled for TOTP',
    );
  }
  const challengeId = str(body.challenge_id) ?? '';
  const session = await ctx.db.transaction(async (tx) => {
    const found = /^[0-9a-f-]{36}$/i.test(challengeId)
      ? (
          await tx.query<{ expired: boolean }>(
            `select created_at + interval '${CHALLENGE_EXPIRY_S} seconds' < now() as expired
               from auth.mfa_challenges where id = $1 and factor_id = $2 and verified_at is null`,
            [challengeId, factor.id],
          )
        ).rows[0]
      : undefined;
    if (!found) {
      throw new AuthError(
        422,
        'mfa_factor_not_found',
        'MFA factor with the provided challenge ID not found',
      );
    }
    if (found.expired) {
      await tx.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
      return new AuthError(
        422,
        'mfa_challenge_expired',
        `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    if (!totpValid(factor.secret ?? '', str(body.code) ?? '')) {
      return new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
    }
    if (!sessionId) throw errors.badJwt('invalid claim: missing session_id claim');
    await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [
      challengeId,
    ]);
    await tx.query(
      `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
      [factor.id],
    );
    const issued = await upgradeSession(tx, ctx.session, user.id, sessionId, factor.id, 'totp');
    // Other sessions below aal2 end, and other unverified TOTP factors go (upstream).
    await tx.query(
      `delete from auth.sessions where user_id = $1 and id <> $2
         and coalesce(aal, 'aal1') < 'aal2'`,
      [user.id, sessionId],
    );
    await tx.query(
      `delete from auth.mfa_factors where user_id = $1 and status = 'unverified'
         and factor_type = 'totp' and id <> $2`,
      [user.id, factor.id],
    );
    return issued;
  });
  // An expired challenge is deleted even though the call fails, so that is committed first.
  if (session instanceof AuthError) throw session;
  return json(r, 200, session);
};

export const unenroll: Handler = async (ctx, r) => {
  const { user, sessionId } = await requireUser(r.req, ctx.db);
  const factor = await ownFactor(ctx.db, user.id, r.path);
  await ctx.db.transaction(async (tx) => {
    if (factor.status === 'verified' && (await sessionAal(tx, sessionId)) !== 'aal2') {
      throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await downgradeSessions(tx, factor.id);
  });
  return json(r, 200, { id: factor.id });
};

/** Sessions raised by a removed factor fall back to aal1 (DowngradeSessionsToAAL1). */
async function downgradeSessions(q: Queryable, factorId: string): Promise<void> {
  await q.query(
    `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
       where factor_id = $1`,
    [factorId],
  );
}

const ADMIN_FACTORS = /^\/admin\/users\/([^/]+)\/factors(?:\/([^/]+))?$/;

export const adminListFactors: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const userId = ADMIN_FACTORS.exec(r.path)?.[1] ?? '';
  await adminUser(ctx, userId);
  return json(r, 200, (await factorsOf(ctx.db, userId)).map(factorJson));
};

export const adminDeleteFactor: Handler = async (ctx, r) => {
  await requireAdmin(r.req);
  const [, userId = '', factorId = ''] = ADMIN_FACTORS.exec(r.path) ?? [];
  await adminUser(ctx, userId);
  const factor = /^[0-9a-f-]{36}$/i.test(factorId)
    ? (
        await ctx.db.query<FactorRow>(
          'select * from auth.mfa_factors where id = $1 and user_id = $2',
          [factorId, userId],
        )
      ).rows[0]
    : undefined;
  if (!factor) throw factorNotFound();
  await ctx.db.transaction(async (tx) => {
    await tx.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await downgradeSessions(tx, factor.id);
  });
  return json(r, 200, factorJson(factor));
};

async function adminUser(ctx: AuthContext, userId: string): Promise<void> {
  const found = /^[0-9a-f-]{36}$/i.test(userId)
    ? (await ctx.db.query('select 1 from auth.users where id = $1', [userId])).rows.length
    : 0;
  if (!found) throw new AuthError(404, 'user_not_found', 'User not found');
}
