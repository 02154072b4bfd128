// Reads an unsubscribe or preferences token into the ids the SQL functions take. The signature is
// checked by _shared/tokens.ts; this also checks the payload's shape, so a malformed id is a
// `token_invalid` rather than a failed uuid cast (a 500).
import { AppError } from './errors.ts';
import { verifyToken } from './tokens.ts';
import { isUuid } from '../../../lib/uuid.ts';

export interface SelfServiceToken {
  subscriberId: string;
  /** The list ids the link concerns; null = every list of the subscriber. */
  listIds: string[] | null;
  /**
   * The campaign whose email carried the link (older links have none): an unsubscribe through it,
   * on the unsubscribe page or the preferences page, counts for that campaign.
   */
  campaignId: string | null;
  /** The automation email step whose email carried the link, or null; as campaignId. */
  stepId: string | null;
}

export function readSelfServiceToken(
  token: unknown,
  purpose: 'unsubscribe' | 'preferences',
): SelfServiceToken {
  const payload = verifyToken(token, purpose);
  if (!isUuid(payload.s)) throw new AppError('token_invalid');
  if (payload.c !== undefined && !isUuid(payload.c)) {
    throw new AppError('token_invalid');
  }
  if (payload.a !== undefined && (!isUuid(payload.a) || payload.c !== undefined)) {
    throw new AppError('token_invalid');
  }
  const campaignId = payload.c ?? null;
  const stepId = payload.a ?? null;
  // A preferences link concerns every list; one naming lists is none of ours.
  if (purpose === 'preferences') {
    if (payload.l !== undefined) throw new AppError('token_invalid');
    return { subscriberId: payload.s, listIds: null, campaignId, stepId };
  }
  if (payload.l === undefined)
    return { subscriberId: payload.s, listIds: null, campaignId, stepId };
  if (!Array.isArray(payload.l) || payload.l.length === 0 || !payload.l.every(isUuid)) {
    throw new AppError('token_invalid');
  }
  return { subscriberId: payload.s, listIds: payload.l, campaignId, stepId };
}

/** The token from the query string, or from a JSON body (which wins when both are given). */
export function tokenFrom(req: Request, body?: Record<string, unknown>): unknown {
  return body?.token ?? new URL(req.url).searchParams.get('token') ?? undefined;
}
