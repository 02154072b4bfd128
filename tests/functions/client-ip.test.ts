// The client address the per-IP subscribe limit counts (clientIp, supabase/functions/_shared/http.ts):
// the hop the platform appended, never one the client wrote itself.
import { describe, expect, it } from 'vitest';

const { clientIp } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/_shared/http.ts', import.meta.url).href
)) as { clientIp: (req: Request, trustedHops?: number) => string };

const from = (forwardedFor?: string) =>
  new Request('http://functions.local/subscribe', {
    headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor },
  });

describe('clientIp', () => {
  it('is the last hop, the one the platform appended', () => {
    expect(clientIp(from('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientIp(from('10.0.0.1, 10.0.0.2,203.0.113.7'))).toBe('203.0.113.7');
  });

  it('ignores whatever the client put in front', () => {
    expect(clientIp(from('198.51.100.1, 203.0.113.7'))).toBe('203.0.113.7');
    expect(clientIp(from('not-an-ip, 203.0.113.7'))).toBe('203.0.113.7');
  });

  it('skips the hops of trusted proxies from the right', () => {
    const req = from('198.51.100.1, 203.0.113.7, 10.0.0.5, 10.0.0.6');
    expect(clientIp(req, 0)).toBe('10.0.0.6');
    expect(clientIp(req, 1)).toBe('10.0.0.5');
    expect(clientIp(req, 2)).toBe('203.0.113.7');
  });

  it('takes the leftmost hop when there are fewer hops than trusted proxies', () => {
    expect(clientIp(from('203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientIp(from('203.0.113.7, 10.0.0.5'), 3)).toBe('203.0.113.7');
  });

  it('is "unknown" without the header or with an empty hop', () => {
    expect(clientIp(from())).toBe('unknown');
    expect(clientIp(from(''))).toBe('unknown');
    expect(clientIp(from('203.0.113.7, '))).toBe('unknown');
  });
});
