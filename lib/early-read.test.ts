// @vitest-environment jsdom
// The issue page's early read (lib/early-read.ts): the inline script sends exactly the request
// publicRest.rpcOne() sends, and the page's read (useArchiveIssue) takes its response instead of
// fetching, once.
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { earlyRpcScript, takeEarlyRpc } from './early-read';
import { publicRest, rpcHeaders } from './supabase-public';
import { useArchiveIssue } from './use-archive-issue';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const script = earlyRpcScript('archive_issue', 'slug', 'p_slug', rpcHeaders());
const issue = { slug: 'spring-notes', subject: 'Spring notes' };

function stubFetch() {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json([issue]));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** What useArchiveIssue(slug) shows once its read has settled. */
async function readIssue(slug: string) {
  let shown: ReturnType<typeof useArchiveIssue> | undefined;
  function Reader() {
    shown = useArchiveIssue(slug);
    return null;
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(createElement(Reader)));
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  await act(async () => root.unmount());
  return shown!;
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

    const shown = await readIssue('spring-notes');
    expect(shown.issue).toEqual(issue);
    expect(fetch).toHaveBeenCalledTimes(1); // taken, not fetched

    // A later read fetches again, with the very same request the script sent.
    await publicRest.rpcOne('archive_issue', { p_slug: 'spring-notes' });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [early, page] = fetch.mock.calls;
    expect(early).toEqual(page);
    expect(takeEarlyRpc('archive_issue', { p_slug: 'spring-notes' })).toBeUndefined();
  });

  it('is not taken by another request', async () => {
    history.replaceState(null, '', '/archive/issue/?slug=spring-notes');
    const fetch = stubFetch();
    new Function(script)();
    expect(takeEarlyRpc('archive_issue', { p_slug: 'other-notes' })).toBeUndefined();
    expect(takeEarlyRpc('archive_issues', { p_slug: 'spring-notes' })).toBeUndefined();
    expect(takeEarlyRpc('archive_issue', { p_slug: 'spring-notes' })).toBeInstanceOf(Promise);
    expect(fetch).toHaveBeenCalledTimes(1);
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
    const args = { p_slug: 'spring-notes' };
    const result = await publicRest.rpcOne(
      'archive_issue',
      args,
      takeEarlyRpc('archive_issue', args),
    );
    expect(result.status).toBe(0);
    expect(result.error?.message).toBe('TypeError: Failed to fetch');
  });

  it('cannot be ended early by what it is built from', () => {
    const hostile = earlyRpcScript('archive_issue', '</script><script>alert(1)', 'p_slug', {});
    expect(hostile).not.toContain('</script>');
    expect(() => new Function(hostile)).not.toThrow();
  });
});
