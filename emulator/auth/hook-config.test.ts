// [auth.hook.send_email] parsing: env() secrets, Auth's start-up checks, and where calls go.
import { describe, expect, it } from 'vitest';
import { hookTarget, LOCAL_AUTH_HOOK_SECRET, sendEmailHookFromToml } from './hook-config.js';

const SECRET = `v1,whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const doc = (hook: Record<string, unknown>, api: Record<string, unknown> = {}) => ({
  api,
  auth: { hook: { send_email: hook } },
});

describe('sendEmailHookFromToml', () => {
  it('is off unless enabled', () => {
    expect(sendEmailHookFromToml({})).toBeNull();
    expect(sendEmailHookFromToml(doc({ enabled: false, uri: 'https://x.test' }))).toBeNull();
  });

  it('resolves env() secrets, several separated by |', () => {
    const hook = sendEmailHookFromToml(
      doc({ enabled: true, uri: 'https://hooks.example.com/a', secrets: 'env(MY_SECRET)' }),
      { MY_SECRET: `${SECRET}|${SECRET}` },
    );
    expect(hook).toEqual({
      uri: 'https://hooks.example.com/a',
      secrets: [SECRET, SECRET],
      apiPort: 54321,
    });
  });

  it('falls back to the local development secret only for POSTBOX_AUTH_HOOK_SECRET', () => {
    const uri = 'http://127.0.0.1:54321/functions/v1/auth-email';
    expect(
      sendEmailHookFromToml(
        doc({ enabled: true, uri, secrets: 'env(POSTBOX_AUTH_HOOK_SECRET)' }),
        {},
      )!.secrets,
    ).toEqual([LOCAL_AUTH_HOOK_SECRET]);
    expect(() =>
      sendEmailHookFromToml(doc({ enabled: true, uri, secrets: 'env(OTHER)' }), {}),
    ).toThrow('OTHER is unset');
  });

  it('refuses what Auth refuses at start', () => {
    expect(() =>
      sendEmailHookFromToml(
        doc({ enabled: true, uri: 'http://example.com/h', secrets: SECRET }),
        {},
      ),
    ).toThrow('only localhost');
    expect(() =>
      sendEmailHookFromToml(doc({ enabled: true, uri: 'https://x.test', secrets: 'v1,nope' }), {}),
    ).toThrow('invalid secret format');
    expect(() => sendEmailHookFromToml(doc({ enabled: true }), {})).toThrow('needs a uri');
  });
});

describe('hookTarget', () => {
  const hook = (uri: string) => ({ uri, secrets: [SECRET], apiPort: 54321 });
  it('sends a local URI on the API port to the running gateway, whatever its port', () => {
    const gateway = 'http://127.0.0.1:40123';
    expect(
      hookTarget(hook('http://host.docker.internal:54321/functions/v1/auth-email'), gateway),
    ).toBe('http://127.0.0.1:40123/functions/v1/auth-email');
    expect(hookTarget(hook('http://localhost:54321/functions/v1/x?a=1'), gateway)).toBe(
      'http://127.0.0.1:40123/functions/v1/x?a=1',
    );
  });
  it('leaves any other URI alone', () => {
    expect(hookTarget(hook('http://127.0.0.1:9999/hook'), 'http://127.0.0.1:1')).toBe(
      'http://127.0.0.1:9999/hook',
    );
    expect(hookTarget(hook('https://hooks.example.com/a'), 'http://127.0.0.1:1')).toBe(
      'https://hooks.example.com/a',
    );
  });
});
