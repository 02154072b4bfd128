// The build-time fallback is stored under the very keys the browser hooks read, and a build that
// cannot reach the project leaves it out (the pages then load in the browser as before).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_KEYS } from './public-props';
import { ARCHIVE_NEWEST_KEY, LATEST_ISSUES_KEY } from '../use-archive';
import { SUBSCRIBER_COUNT_KEY } from '../use-subscriber-count';
import { PUBLIC_LISTS_KEY } from '../use-public-lists';
import { PUBLIC_SETTINGS_KEY } from '../use-public-settings';

describe('BUILD_KEYS', () => {
  it('are the hooks keys', () => {
    expect(BUILD_KEYS.settings).toBe(PUBLIC_SETTINGS_KEY);
    expect(BUILD_KEYS.lists).toBe(PUBLIC_LISTS_KEY);
    expect(BUILD_KEYS.latest).toBe(LATEST_ISSUES_KEY);
    expect(BUILD_KEYS.archive).toBe(ARCHIVE_NEWEST_KEY);
    expect(BUILD_KEYS.count).toBe(SUBSCRIBER_COUNT_KEY);
  });
});

describe('archiveStaticProps', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('leaves the archive out when the project cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('POSTBOX_BUILD_REQUIRE_DATA', '');
    vi.stubEnv('NEXT_PUBLIC_SUPABASE_URL', 'http://127.0.0.1:9'); // nothing listens there
    const { archiveStaticProps } = await import('./public-props');
    expect(await archiveStaticProps()).toEqual({ props: { fallback: {} } });
  });
});
