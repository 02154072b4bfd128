import { describe, expect, it } from 'vitest';
import { KEYS } from '../keys.js';
import { bearerToken, resolveAuthorization } from './credentials.js';

describe('resolveAuthorization (contract §0.3)', () => {
  it('passes a user JWT through', () => {
    expect(resolveAuthorization('Bearer user.jwt.here', KEYS.publishable, KEYS)).toBe(
      'Bearer user.jwt.here',
    );
  });
  it('maps the publishable key to the anon JWT, even when sent as Bearer', () => {
    expect(resolveAuthorization(`Bearer ${KEYS.publishable}`, KEYS.publishable, KEYS)).toBe(
      `Bearer ${KEYS.anon}`,
    );
    expect(resolveAuthorization(null, KEYS.publishable, KEYS)).toBe(`Bearer ${KEYS.anon}`);
  });
  it('maps the secret key to the service_role JWT', () => {
    expect(resolveAuthorization(`Bearer ${KEYS.secret}`, KEYS.secret, KEYS)).toBe(
      `Bearer ${KEYS.serviceRole}`,
    );
  });
  it('uses a legacy JWT apikey as the bearer when no Authorization is sent', () => {
    expect(resolveAuthorization(null, KEYS.anon, KEYS)).toBe(`Bearer ${KEYS.anon}`);
  });
  it('leaves nothing when there are no credentials', () => {
    expect(resolveAuthorization(null, null, KEYS)).toBeNull();
  });
  it('extracts bearer tokens', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(null)).toBeNull();
  });
});
