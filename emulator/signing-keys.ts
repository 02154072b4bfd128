// Asymmetric JWT signing keys as the Supabase CLI reads `[auth] signing_keys_path`: a JSON array of private JWKs.
import { createLocalJWKSet, type CryptoKey, type JWK, type JWTVerifyGetKey } from 'jose';

const ALGORITHMS = new Set(['RS256', 'ES256']);
/** Private members of RSA and EC JWKs, never published. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

export interface SigningKeys {
  /** The first key signs, as the CLI passes the array to GoTrue in order. */
  current: { alg: string; kid: string; privateKey: CryptoKey | Uint8Array };
  publicJwks: JWK[];
  verifyKey: JWTVerifyGetKey;
}

/** Parses the file's text; errors name the file, as the CLI refuses to start on a bad one. */
export function parseSigningKeys(text: string, path: string): JWK[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`failed to parse signing keys ${path}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!Array.isArray(value)) throw new Error(`signing keys ${path} must be a JSON array of JWKs`);
  for (const [i, key] of value.entries()) {
    const jwk = key as JWK;
    if (!jwk || typeof jwk !== 'object' || !ALGORITHMS.has(String(jwk.alg))) {
      throw new Error(`signing key ${i} in ${path}: alg must be RS256 or ES256`);
    }
    if (typeof jwk.kid !== 'string' || !jwk.kid) {
      throw new Error(`signing key ${i} in ${path}: kid is required`);
    }
    if (typeof jwk.d !== 'string') {
      throw new Error(`signing key ${i} in ${path}: a private key (d) is required`);
    }
  }
  return value as JWK[];
}

/** The public half of a private JWK, as GoTrue publishes it (key_ops verify). */
export function publicJwk(jwk: JWK): JWK {
  const out: Record<string, unknown> = { ...jwk, key_ops: ['verify'] };
  for (const member of PRIVATE_MEMBERS) delete out[member];
  return out as JWK;
}

export async function signingKeyFor(
  jwks: JWK[],
  importJWK: (jwk: JWK, alg?: string) => Promise<CryptoKey | Uint8Array>,
): Promise<SigningKeys> {
  const first = jwks[0]!;
  const publicJwks = jwks.map(publicJwk);
  return {
    current: {
      alg: first.alg!,
      kid: first.kid!,
      privateKey: await importJWK({ ...first, key_ops: ['sign'] }, first.alg),
    },
    publicJwks,
    verifyKey: createLocalJWKSet({ keys: publicJwks }),
  };
}
