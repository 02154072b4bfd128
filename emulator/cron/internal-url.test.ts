// The Docker-network gateway names a migration may use, resolved to the emulator's own gateway.
import { describe, expect, it } from 'vitest';
import { resolveInternalUrl } from './net-worker.js';

const gateway = 'http://127.0.0.1:55321';

describe('resolveInternalUrl', () => {
  it('sends kong:8000 and api.supabase.internal:8000 to the gateway, keeping path and query', () => {
    expect(resolveInternalUrl(new URL('http://kong:8000/functions/v1/x?a=1'), gateway).href).toBe(
      'http://127.0.0.1:55321/functions/v1/x?a=1',
    );
    expect(
      resolveInternalUrl(new URL('http://api.supabase.internal:8000/rest/v1/'), gateway).href,
    ).toBe('http://127.0.0.1:55321/rest/v1/');
  });

  it('leaves every other URL alone, and all of them when no gateway is known', () => {
    for (const url of ['http://kong:8001/', 'https://kong:8000/', 'http://example.com:8000/']) {
      expect(resolveInternalUrl(new URL(url), gateway).href).toBe(url);
    }
    expect(resolveInternalUrl(new URL('http://kong:8000/'), undefined).href).toBe(
      'http://kong:8000/',
    );
  });
});
