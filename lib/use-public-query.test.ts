// @vitest-environment jsdom
// The public pages' data hook (lib/use-public-query.ts) in a real React root under jsdom: one request
// for components sharing a key, the build's fallback shown first, revalidation on focus (throttled)
// and on reconnect, SWR's back-off after a failure, and the last good data kept when a read fails.
import { act, createElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryError, type SupabaseResult } from './query';
import {
  PublicFallbackContext,
  mutatePublic,
  usePublicQuery,
  type PublicQuery,
  type PublicQueryConfig,
} from './use-public-query';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLElement;
let keyCount = 0;
/** A key no earlier test used: the hook's cache lives as long as the module. */
const freshKey = () => `test-${++keyCount}`;

type Fetcher = () => Promise<SupabaseResult<string>>;
const ok = (data: string): SupabaseResult<string> => ({ data, error: null, status: 200 });
const failed: SupabaseResult<string> = {
  data: null,
  error: { message: 'TypeError: Failed to fetch' },
  status: 0,
};

/** Renders `count` components reading `key`; returns what each saw last. */
async function mount(
  key: string,
  fetcher: Fetcher,
  {
    count = 1,
    config,
    fallback = {},
  }: {
    count?: number;
    config?: PublicQueryConfig;
    fallback?: Record<string, unknown>;
  } = {},
) {
  const seen: Array<PublicQuery<string>> = [];
  function Reader({ index }: { index: number }) {
    seen[index] = usePublicQuery(key, fetcher, config);
    return null;
  }
  const readers: ReactNode[] = [];
  for (let i = 0; i < count; i++) readers.push(createElement(Reader, { key: i, index: i }));
  await act(async () => {
    root.render(createElement(PublicFallbackContext.Provider, { value: fallback }, ...readers));
  });
  return seen;
}

/** Lets pending promises (the fetcher's) settle inside act. */
async function settle() {
  await act(async () => {
    await Promise.resolve();
  });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-12-01T12:00:00Z') });
  vi.spyOn(Math, 'random').mockReturnValue(0.5); // back-off without jitter: exactly 5 s, 10 s…
  setVisibility('visible');
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('usePublicQuery', () => {
  it('sends one request for every component that shows the same key', async () => {
    let resolve!: (value: SupabaseResult<string>) => void;
    const fetcher = vi.fn<Fetcher>(() => new Promise((r) => (resolve = r)));
    const seen = await mount(freshKey(), fetcher, { count: 3 });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(seen.map((s) => s.isLoading)).toEqual([true, true, true]);
    await act(async () => resolve(ok('lists')));
    expect(seen.map((s) => s.data)).toEqual(['lists', 'lists', 'lists']);
    expect(seen[0]!.isLoading).toBe(false);
  });

  it('joins a read already on its way and does not read again within 2 s of the last', async () => {
    const key = freshKey();
    const fetcher = vi.fn<Fetcher>(async () => ok('a'));
    await mount(key, fetcher);
    await settle();
    expect(fetcher).toHaveBeenCalledTimes(1);
    // A second component mounting a second later finds fresh data: no request.
    await advance(1000);
    await mount(key, fetcher, { count: 2 });
    expect(fetcher).toHaveBeenCalledTimes(1);
    // Two mutates at once make one request.
    await act(async () => {
      await Promise.all([mutatePublic(key), mutatePublic(key)]);
    });
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('shows the build’s data first, then what the browser read', async () => {
    const key = freshKey();
    let resolve!: (value: SupabaseResult<string>) => void;
    const fetcher = vi.fn<Fetcher>(() => new Promise((r) => (resolve = r)));
    const seen = await mount(key, fetcher, { fallback: { [key]: 'from the build' } });
    expect(seen[0]!.data).toBe('from the build');
    expect(seen[0]!.isLoading).toBe(false);
    // Read again once the browser is idle (jsdom has no requestIdleCallback: shortly after), not in
    // hydration's effects.
    expect(fetcher).not.toHaveBeenCalled();
    await advance(50);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(async () => resolve(ok('from the browser')));
    expect(seen[0]!.data).toBe('from the browser');
  });

  it('does not read the build’s data again when the page is left before the browser was idle', async () => {
    const key = freshKey();
    const fetcher = vi.fn<Fetcher>(async () => ok('from the browser'));
    await mount(key, fetcher, { fallback: { [key]: 'from the build' } });
    await act(async () => root.render(null));
    await advance(1000);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('renders nothing again when a read answers what the component already shows', async () => {
    const key = freshKey();
    const built = [{ id: 1, tags: new Set(['a']), name: 'Letters' }];
    let answer: unknown = [{ id: 1, tags: new Set(['a']), name: 'Letters' }]; // equal, not the same
    const fetcher = vi.fn(async () => ({ data: answer, error: null, status: 200 }));
    const shown: unknown[] = [];
    function Reader() {
      shown.push(usePublicQuery(key, fetcher as () => Promise<SupabaseResult<unknown>>).data);
      return null;
    }
    await act(async () => {
      root.render(
        createElement(
          PublicFallbackContext.Provider,
          { value: { [key]: built } },
          createElement(Reader),
        ),
      );
    });
    await advance(50); // the read again once idle
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(shown).toEqual([built]); // one render: the build's data, kept by reference
    expect(shown[0]).toBe(built);
    // A changed answer does render, and an equal one after it again does not.
    answer = [{ id: 1, tags: new Set(['a', 'b']), name: 'Letters' }];
    await act(async () => void (await mutatePublic(key)));
    expect(shown).toHaveLength(2);
    expect(shown[1]).toEqual(answer);
    answer = [{ id: 1, tags: new Set(['b', 'a']), name: 'Letters' }];
    await act(async () => void (await mutatePublic(key)));
    expect(shown).toHaveLength(2);
  });

  it('reads again when the tab comes back into view, at most every 5 s', async () => {
    const key = freshKey();
    const fetcher = vi.fn<Fetcher>(async () => ok('x'));
    await mount(key, fetcher);
    await settle();
    expect(fetcher).toHaveBeenCalledTimes(1);

    await advance(2000);
    await act(async () => void window.dispatchEvent(new Event('focus')));
    expect(fetcher).toHaveBeenCalledTimes(1); // throttled: the last read was 2 s ago

    await advance(4000);
    setVisibility('hidden');
    await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
    expect(fetcher).toHaveBeenCalledTimes(1); // hidden: nothing to show it to

    setVisibility('visible');
    await act(async () => void document.dispatchEvent(new Event('visibilitychange')));
    await settle();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('does not read on focus when the page said so, but does on reconnect', async () => {
    const key = freshKey();
    const fetcher = vi.fn<Fetcher>(async () => ok('x'));
    await mount(key, fetcher, { config: { revalidateOnFocus: false } });
    await settle();
    await advance(10_000);
    await act(async () => void window.dispatchEvent(new Event('focus')));
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(async () => void window.dispatchEvent(new Event('online')));
    await settle();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('does not read on reconnect when the page said so', async () => {
    const key = freshKey();
    const fetcher = vi.fn<Fetcher>(async () => ok('x'));
    await mount(key, fetcher, { config: { revalidateOnReconnect: false } });
    await settle();
    await act(async () => void window.dispatchEvent(new Event('online')));
    await settle();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('retries a failed read with back-off (5 s, then 10 s) until it succeeds', async () => {
    const key = freshKey();
    const answers = [failed, failed, ok('back')];
    const fetcher = vi.fn<Fetcher>(async () => answers.shift()!);
    const seen = await mount(key, fetcher);
    await settle();
    expect(seen[0]!.error).toBeInstanceOf(QueryError);
    expect(seen[0]!.error!.message).toMatch(/could not reach the server/);
    expect(seen[0]!.isLoading).toBe(false);

    await advance(4999);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(fetcher).toHaveBeenCalledTimes(2); // first retry after 5 s
    await advance(9999);
    expect(fetcher).toHaveBeenCalledTimes(2);
    await advance(1);
    expect(fetcher).toHaveBeenCalledTimes(3); // second after 10 more
    expect(seen[0]!.data).toBe('back');
    expect(seen[0]!.error).toBeUndefined();
    await advance(60_000);
    expect(fetcher).toHaveBeenCalledTimes(3); // no more retries once it succeeded
  });

  it('does not retry when the page said so', async () => {
    const fetcher = vi.fn<Fetcher>(async () => failed);
    await mount(freshKey(), fetcher, { config: { shouldRetryOnError: false } });
    await settle();
    await advance(60_000);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('keeps the last good data when a later read fails, beside the error', async () => {
    const key = freshKey();
    const answers = [ok('good'), failed];
    const fetcher = vi.fn<Fetcher>(async () => answers.shift() ?? ok('good again'));
    const seen = await mount(key, fetcher);
    await settle();
    expect(seen[0]!.data).toBe('good');
    await act(async () => {
      await mutatePublic(key);
    });
    expect(seen[0]!.data).toBe('good');
    expect(seen[0]!.error).toBeInstanceOf(QueryError);
    // Try again (mutate()) clears the error with the new data.
    await act(async () => {
      await seen[0]!.mutate();
    });
    expect(seen[0]!.data).toBe('good again');
    expect(seen[0]!.error).toBeUndefined();
  });

  it('skips the read for a null key and sets data without a request', async () => {
    const fetcher = vi.fn<Fetcher>(async () => ok('x'));
    const seen: Array<PublicQuery<string>> = [];
    function Reader() {
      seen[0] = usePublicQuery<string>(null, fetcher);
      return null;
    }
    await act(async () => root.render(createElement(Reader)));
    expect(fetcher).not.toHaveBeenCalled();
    expect(seen[0]!.isLoading).toBe(false);

    const key = freshKey();
    const read = await mount(key, fetcher);
    await settle();
    await act(async () => {
      await read[0]!.mutate('set here', { revalidate: false });
    });
    expect(read[0]!.data).toBe('set here');
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
