// claim-owner (SPEC §6): sign-ups to the team are closed, and the address in POSTBOX_OWNER_EMAIL
// becomes owner on its first sign-in. Two calls make that happen:
// - `{action: "prepare", email}` (no session needed) creates the owner's account, without a
//   password, if it does not exist yet, so the login page can ask Auth for a sign-in link. It is
//   created confirmed: with sign-ups closed Auth sends no link to an unconfirmed account (it would
//   sign it up again), and without a password only a link mailed to the address opens it.
//   Any other address is left alone, with the same answer, so the call reveals nothing.
// - `{}` with the owner's session, which only that link can give, makes them owner. Each
//   address claims once (SQL keeps the record); after that the team decides who is owner.
// verify_jwt is off (config.toml): the first call has no session, and errors must carry CORS.
import { adminClient, rpc } from '../_shared/db.ts';
import { env } from '../_shared/env.ts';
import { AppError } from '../_shared/errors.ts';
import { json, readJsonObject, serve } from '../_shared/http.ts';
import { isOwnerClaim, parseClaimRequest } from './rule.ts';

async function prepareOwnerAccount(email: string): Promise<void> {
  if (email !== env.ownerEmail()) return;
  const known = await rpc<{ user_id: string | null }>('member_candidate', { p_email: email });
  if (known.user_id) return;
  const created = await adminClient().auth.admin.createUser({ email, email_confirm: true });
  // Two first sign-ins at once: the other one made it.
  if (created.error && created.error.code !== 'email_exists') {
    console.error('creating the owner account failed', created.error);
    throw new AppError('internal');
  }
}

async function claim(req: Request): Promise<Response> {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token) throw new AppError('unauthenticated');
  const { data, error } = await adminClient().auth.getUser(token);
  if (error || !data.user) throw new AppError('unauthenticated');
  if (!isOwnerClaim(data.user, env.ownerEmail())) throw new AppError('forbidden');
  const member = await rpc<{ user_id: string; email: string; role: string }>('claim_owner', {
    p_user_id: data.user.id,
    p_email: data.user.email,
  });
  return json({ member });
}

serve(['POST'], async (req) => {
  // An empty body is accepted as `{}`; anything sent must be a JSON object.
  const hasBody =
    req.headers.get('content-type') || Number(req.headers.get('content-length') ?? '0') > 0;
  const request = parseClaimRequest(hasBody ? await readJsonObject(req) : {});
  if (request.action === 'claim') return await claim(req);
  await prepareOwnerAccount(request.email);
  return json({ prepared: true });
});
