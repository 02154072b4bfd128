// @vitest-environment jsdom
// The issue page's early read (lib/early-read.ts): the inline script sends exactly the request
// publicRest.rpcOne() sends, and that call then takes its response instead of fetching, once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { earlyRpcScript, takeEarlyRead } from './early-read';
import { publicRest, rpcHeaders } from './supabase-public';

const script = earlyRpcScript('archive_issue', 'slug', 'p_slug', rpcHeaders());
const issue = { slug: 'spring-notes', subject: 'Spring notes' };

function stubFetch() {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json([issue]));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__postboxEarlyReads;
});

describe('early reads', () => {
  it('sends the request the page would send, and the page takes its answer once', async () => {
    history.replaceState(null, '', '/archive/issue/?slug=spring-notes');
    const fetch = stubFetch();
    new Function(script)();
    expect(fetch).toHaveBeenCalledTimes(1);

    const first = await publicRest.rpcOne('archive_issue', { p_slug: 'spring-notes' });
    expect(first).toEqual({ data: issue, error: null, status: 200 });
    expect(fetch).toHaveBeenCalledTimes(1); // taken, not fetched

    // A retry reads again, with the very same request the script sent.
    await publicRest.rpcOne('archive_issue', { p_slug: 'spring-notes' });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [early, page] = fetch.mock.calls;
    expect(early).toEqual(page);
  });

  it('is not taken by another request', async () => {
    history.replaceState(null, '', '/archive/issue/?slug=spring-notes');
    const fetch = stubFetch();
    new Function(script)();
    await publicRest.rpcOne('archive_issue', { p_slug: 'other-notes' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(takeEarlyRead('rpc/archive_issue', '{"p_slug":"spring-notes"}')).toBeInstanceOf(Promise);
  });

  it('sends nothing without the parameter, and a failed read reaches the page as a failure', async () => {
    history.replaceState(null, '', '/archive/issue/');
    const fetch = stubFetch();
    new Function(script)();
    expect(fetch).not.toHaveBeenCalled();

    history.replaceState(null, '', '/archive/issue/?slug=spring-notes');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    new Function(script)();
    const result = await publicRest.rpcOne('archive_issue', { p_slug: 'spring-notes' });
    expect(result.status).toBe(0);
    expect(result.error?.message).toBe('TypeError: Failed to fetch');
  });

  it('cannot be ended early by what it is built from', () => {
    const hostile = earlyRpcScript('archive_issue', '</script><script>alert(1)', 'p_slug', {});
    expect(hostile).not.toContain('</script>');
    expect(() => new Function(hostile)).not.toThrow();
  });
});
