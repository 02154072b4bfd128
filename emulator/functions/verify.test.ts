// Unit tests: the verify_jwt decision and its 401 reasons.
import { describe, expect, it } from 'vitest';
import { KEYS, signJwt } from '../keys.js';
import { checkFunctionAuthorization } from './verify.js';

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('checkFunctionAuthorization (contract §5.2)', () => {
  it('lets everything through when verify_jwt is off', async () => {
    expect(await checkFunctionAuthorization('POST', null, false)).toEqual({ ok: true });
    expect(await checkFunctionAuthorization('POST', 'Bearer junk', false)).toEqual({ ok: true });
  });

  it('never checks OPTIONS, so functions answer their own preflight', async () => {
    expect(await checkFunctionAuthorization('OPTIONS', null, true)).toEqual({ ok: true });
  });

  it('accepts the legacy keys and signed user tokens', async () => {
    expect(await checkFunctionAuthorization('POST', `Bearer ${KEYS.anon}`, true)).toEqual({
      ok: true,
    });
    expect(await checkFunctionAuthorization('GET', `Bearer ${KEYS.serviceRole}`, true)).toEqual({
      ok: true,
    });
    const user = await signJwt({
      sub: 'u1',
      role: 'authenticated',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    expect(await checkFunctionAuthorization('DELETE', `Bearer ${user}`, true)).toEqual({
      ok: true,
    });
  });

  it('rejects a missing header', async () => {
    expect(await checkFunctionAuthorization('POST', null, true)).toEqual({
      ok: false,
      errorCode: 'UNAUTHORIZED_NO_AUTH_HEADER',
      message: 'Missing authorization header',
    });
  });

  it('rejects headers that are not `Bearer <token>`', async () => {
    for (const header of [KEYS.anon, `bearer ${KEYS.anon}`, 'Basic abc', 'Bearer']) {
      expect(await checkFunctionAuthorization('POST', header, true)).toEqual({
        ok: false,
        errorCode: 'UNAUTHORIZED_INVALID_JWT_FORMAT',
        message: "Auth header is not 'Bearer {token}'",
      });
    }
  });

  it('rejects opaque keys as bearer tokens', async () => {
    expect(await checkFunctionAuthorization('POST', `Bearer ${KEYS.publishable}`, true)).toEqual({
      ok: false,
      errorCode: 'UNAUTHORIZED_INVALID_JWT_FORMAT',
      message: 'Invalid JWT',
    });
  });

  it('rejects expired or wrongly signed HS256 tokens', async () => {
    const expired = await signJwt({ role: 'anon', exp: Math.floor(Date.now() / 1000) - 10 });
    const forged = KEYS.anon.slice(0, -4) + 'AAAA';
    for (const token of [expired, forged]) {
      expect(await checkFunctionAuthorization('POST', `Bearer ${token}`, true)).toEqual({
        ok: false,
        errorCode: 'UNAUTHORIZED_LEGACY_JWT',
        message: 'Invalid JWT',
      });
    }
  });

  it('names asymmetric and unsupported algorithms', async () => {
    const es = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ role: 'anon' })}.sig`;
    expect(await checkFunctionAuthorization('POST', `Bearer ${es}`, true)).toMatchObject({
      ok: false,
      errorCode: 'UNAUTHORIZED_ASYMMETRIC_JWT',
    });
    const ps = `${b64({ alg: 'PS256', typ: 'JWT' })}.${b64({ role: 'anon' })}.sig`;
    expect(await checkFunctionAuthorization('POST', `Bearer ${ps}`, true)).toEqual({
      ok: false,
      errorCode: 'UNAUTHORIZED_UNSUPPORTED_TOKEN_ALGORITHM',
      message: 'Unsupported JWT algorithm PS256',
    });
  });
});
