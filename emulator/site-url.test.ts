// Unit tests: the site URL `npm run dev --port` picks, and how Auth's site_url and allow-list follow it.
import { describe, expect, it } from 'vitest';
import type { AuthSettings } from './config.js';
import { DevUsageError, parseDevArgs } from './dev-options.js';
import { authForSiteUrl } from './site-url.js';

const auth = (siteUrl: string, additionalRedirectUrls: string[]) =>
  ({ siteUrl, additionalRedirectUrls }) as AuthSettings;

describe('authForSiteUrl', () => {
  it("moves the site's own entries, on 127.0.0.1 and localhost, and keeps the others", () => {
    const moved = authForSiteUrl(
      auth('http://127.0.0.1:3000', [
        'http://127.0.0.1:3000/**',
        'http://localhost:3000/**',
        'http://127.0.0.1:55300/**',
        'https://*.example.com/**',
        'https://news.example.com/welcome',
      ]),
      'http://127.0.0.1:3100',
    );
    expect(moved.siteUrl).toBe('http://127.0.0.1:3100');
    expect(moved.additionalRedirectUrls).toEqual([
      'http://127.0.0.1:3100/**',
      'http://localhost:3100/**',
      'http://127.0.0.1:55300/**',
      'https://*.example.com/**',
      'https://news.example.com/welcome',
    ]);
  });

  it('keeps the other settings, drops a trailing slash and leaves a same-port remote host alone', () => {
    const before = {
      ...auth('http://localhost:3000/', [
        'http://localhost:3000/login/',
        'http://10.0.0.5:3000/**',
      ]),
      jwtExpiry: 1234,
    } as AuthSettings;
    const moved = authForSiteUrl(before, 'http://127.0.0.1:4000/');
    expect(moved.siteUrl).toBe('http://127.0.0.1:4000');
    expect(moved.jwtExpiry).toBe(1234);
    // The entry on the old site's own origin follows the site, host and all.
    expect(moved.additionalRedirectUrls).toEqual([
      'http://127.0.0.1:4000/login/',
      'http://10.0.0.5:3000/**',
    ]);
    expect(before.additionalRedirectUrls[0]).toBe('http://localhost:3000/login/');
  });

  it('is the identity for the configured site URL', () => {
    const same = auth('http://127.0.0.1:3000', [
      'http://127.0.0.1:3000/**',
      'http://localhost:3000/**',
    ]);
    expect(authForSiteUrl(same, 'http://127.0.0.1:3000')).toEqual(same);
  });
});

describe('parseDevArgs', () => {
  it('defaults to the site on 3000 and the API on 54321', () => {
    expect(parseDevArgs([])).toEqual({
      sitePort: 3000,
      apiPort: 54321,
      siteUrl: 'http://127.0.0.1:3000',
      help: false,
    });
  });

  it('takes --port for the site (and so the site URL) and --api-port for the API', () => {
    expect(parseDevArgs(['--port', '3100', '--api-port=54421'])).toMatchObject({
      sitePort: 3100,
      apiPort: 54421,
      siteUrl: 'http://127.0.0.1:3100',
    });
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '0']],
    [['--api-port', '70000']],
    [['--port', '3.5']],
    [['--port', '4000', '--api-port', '4000']],
    [['--site-port', '3100']],
    [['stray']],
  ])('refuses %j as a usage error', (args) => {
    expect(() => parseDevArgs(args)).toThrow(DevUsageError);
  });
});
