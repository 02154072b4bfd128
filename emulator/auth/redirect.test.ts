// Unit tests for redirect_to checking against the site URL and the allow-list globs.
import { describe, expect, it } from 'vitest';
import { compileRedirectGlob, resolveRedirect } from './redirect.js';

const policy = {
  siteUrl: 'http://127.0.0.1:3000',
  additionalRedirectUrls: ['https://app.example.com/**', 'https://*.preview.dev/callback'],
};

describe('resolveRedirect', () => {
  it('falls back to the site URL when nothing is asked', () => {
    expect(resolveRedirect(policy, null)).toBe('http://127.0.0.1:3000');
  });
  it('allows anything on the site URL host', () => {
    expect(resolveRedirect(policy, 'http://127.0.0.1:3000/welcome?x=1')).toBe(
      'http://127.0.0.1:3000/welcome?x=1',
    );
  });
  it('allows ** globs across path segments', () => {
    expect(resolveRedirect(policy, 'https://app.example.com/a/b/c')).toBe(
      'https://app.example.com/a/b/c',
    );
  });
  it('keeps * within one label', () => {
    expect(resolveRedirect(policy, 'https://pr-1.preview.dev/callback')).toBe(
      'https://pr-1.preview.dev/callback',
    );
    expect(resolveRedirect(policy, 'https://a.b.preview.dev/callback')).toBe(policy.siteUrl);
  });
  it('replaces unknown hosts and garbage with the site URL', () => {
    expect(resolveRedirect(policy, 'https://evil.example.org/')).toBe(policy.siteUrl);
    expect(resolveRedirect(policy, 'not a url')).toBe(policy.siteUrl);
  });
});

describe('compileRedirectGlob', () => {
  it('escapes regex characters', () => {
    expect(compileRedirectGlob('http://x.com/a+b').test('http://x.com/a+b')).toBe(true);
    expect(compileRedirectGlob('http://x.com/a+b').test('http://xycom/a+b')).toBe(false);
  });
  it('? matches one non-separator character', () => {
    expect(compileRedirectGlob('http://h/?').test('http://h/a')).toBe(true);
    expect(compileRedirectGlob('http://h/?').test('http://h//')).toBe(false);
  });
});
