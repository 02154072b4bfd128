// The build-time fallback is stored under the very keys the browser hooks read.
import { describe, expect, it } from 'vitest';
import { BUILD_KEYS } from './public-props';
import { LATEST_ISSUES_KEY } from '../use-archive';
import { SUBSCRIBER_COUNT_KEY } from '../use-subscriber-count';
import { PUBLIC_LISTS_KEY } from '../use-public-lists';
import { PUBLIC_SETTINGS_KEY } from '../use-public-settings';

describe('BUILD_KEYS', () => {
  it('are the hooks keys', () => {
    expect(BUILD_KEYS.settings).toBe(PUBLIC_SETTINGS_KEY);
    expect(BUILD_KEYS.lists).toBe(PUBLIC_LISTS_KEY);
    expect(BUILD_KEYS.latest).toBe(LATEST_ISSUES_KEY);
    expect(BUILD_KEYS.count).toBe(SUBSCRIBER_COUNT_KEY);
  });
});
