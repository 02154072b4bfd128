// claim-owner's requests (supabase/functions/claim-owner/rule.ts): a claim, or `prepare` with an
// address, and the catalogue errors for anything else.
import { describe, expect, it } from 'vitest';
// The Deno file imports its neighbours with `.ts` extensions, which this project's tsc refuses;
// vitest loads it as it is (see signup-input.test.ts, which also covers isOwnerClaim).
const { parseClaimRequest } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/claim-owner/rule.ts', import.meta.url).href
)) as { parseClaimRequest: (body: Record<string, unknown>) => unknown };

describe('parseClaimRequest', () => {
  it('reads an empty body or action "claim" as a claim', () => {
    expect(parseClaimRequest({})).toEqual({ action: 'claim' });
    expect(parseClaimRequest({ action: 'claim' })).toEqual({ action: 'claim' });
  });

  it('reads "prepare" with a normalised address', () => {
    expect(parseClaimRequest({ action: 'prepare', email: '  Owner@Example.COM ' })).toEqual({
      action: 'prepare',
      email: 'owner@example.com',
    });
  });

  it('refuses a bad address or an unknown action with the catalogue codes', () => {
    expect(() => parseClaimRequest({ action: 'prepare', email: 'nope' })).toThrow(
      expect.objectContaining({ code: 'invalid_email' }),
    );
    expect(() => parseClaimRequest({ action: 'prepare' })).toThrow(
      expect.objectContaining({ code: 'invalid_email' }),
    );
    expect(() => parseClaimRequest({ action: 'promote' })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
  });
});
