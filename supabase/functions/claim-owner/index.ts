// claim-owner (SPEC §6): the signed-in user whose confirmed address is POSTBOX_OWNER_EMAIL becomes
// owner; anyone else is refused. Calling it again changes nothing.
import { adminClient, rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { isOwnerClaim } from './rule.ts';

serve(['POST'], async (req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) throw new AppError('unauthenticated');
  // An empty body is accepted as `{}`; anything sent must be a JSON object.
  if (req.headers.get('content-type') || Number(req.headers.get('content-length') ?? '0') > 0) {
    await readJsonObject(req);
  }
  const { data, error } = await adminClient().auth.getUser(token);
  if (error || !data.user) throw new AppError('unauthenticated');
  if (!isOwnerClaim(data.user, env.ownerEmail())) throw new AppError('forbidden');
  const member = await rpc<{ user_id: string; email: string; role: string }>('claim_owner', {
    p_user_id: data.user.id,
    p_email: data.user.email,
  });
  return json({ member });
});
