// Where sign-in goes next, and what /auth/callback/ reads from the URL Auth redirected to.
import { describe, expect, it } from 'vitest';
import { callbackUrl, parseCallback, safeNext, authMessage, isUnknownAccount } from './sign-in';

describe('safeNext', () => {
  it('keeps same-site paths', () => {
    expect(safeNext('/admin/lists/')).toBe('/admin/lists/');
    expect(safeNext('/admin/subscribers/view/?id=1')).toBe('/admin/subscribers/view/?id=1');
  });
  it('falls back to the dashboard for anything that could leave the site or loop', () => {
    for (const bad of [
      undefined,
      ['/a'],
      '',
      'admin',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      '/login/',
      '/auth/callback/',
      '/a\nb',
    ]) {
      expect(safeNext(bad)).toBe('/admin/');
    }
  });
});

describe('callbackUrl', () => {
  it('adds next only when it is not the dashboard', () => {
    expect(callbackUrl('http://127.0.0.1:3000', '/admin/')).toBe(
      'http://127.0.0.1:3000/auth/callback/',
    );
    expect(callbackUrl('https://x.test', '/admin/lists/')).toBe(
      'https://x.test/auth/callback/?next=%2Fadmin%2Flists%2F',
    );
    expect(callbackUrl('https://x.test', '//evil')).toBe('https://x.test/auth/callback/');
  });
});

describe('parseCallback', () => {
  it('reads a PKCE code and the next page', () => {
    expect(
      parseCallback('https://x.test/auth/callback/?next=%2Fadmin%2Flists%2F&code=abc&sb_flow_id=f'),
    ).toEqual({
      kind: 'code',
      code: 'abc',
      next: '/admin/lists/',
    });
  });
  it('reads implicit-flow tokens from the fragment', () => {
    expect(
      parseCallback(
        'https://x.test/auth/callback/#access_token=a&expires_in=3600&refresh_token=r&token_type=bearer&type=magiclink',
      ),
    ).toEqual({
      kind: 'tokens',
      accessToken: 'a',
      refreshToken: 'r',
      next: '/admin/',
    });
  });
  it('reads errors from the query (PKCE) or the fragment (implicit)', () => {
    expect(
      parseCallback(
        'https://x.test/auth/callback/?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      ),
    ).toEqual({
      kind: 'error',
      message: 'Email link is invalid or has expired',
      code: 'otp_expired',
      next: '/admin/',
    });
    expect(
      parseCallback('https://x.test/auth/callback/#error=server_error&error_description=Boom&sb=')
        .kind,
    ).toBe('error');
  });
  it('says when there is nothing to finish', () => {
    expect(parseCallback('https://x.test/auth/callback/')).toEqual({
      kind: 'none',
      next: '/admin/',
    });
  });
});

describe('closed sign-ups', () => {
  it('recognises Auth refusing a link for an address with no account', () => {
    expect(isUnknownAccount({ code: 'otp_disabled' })).toBe(true);
    expect(isUnknownAccount({ code: 'signup_disabled' })).toBe(true);
    expect(isUnknownAccount({ code: 'over_email_send_rate_limit' })).toBe(false);
    expect(isUnknownAccount({})).toBe(false);
  });

  it('tells a stranger the address is not on the team', () => {
    const error = authMessage({
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
      status: 422,
    });
    expect(error.message).toBe(
      'This address is not on the team yet. If you were invited, open the link in your invitation email; otherwise ask an owner of the team to invite you.',
    );
    expect(error.code).toBe('otp_disabled');
  });
});
