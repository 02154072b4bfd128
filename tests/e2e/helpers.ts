// Shared bits of the e2e specs: the subscribe endpoint, the form's messages and locators.
import type { Page } from '@playwright/test';
import { E2E_SUPABASE_URL } from './ports';

export const SUBSCRIBE_URL = `${E2E_SUPABASE_URL}/functions/v1/subscribe`;
// Written out rather than imported from lib/subscribe.ts, so a changed message fails a test.
export const NOT_OPEN = 'Signups are not open yet.';
export const UNREACHABLE =
  'We could not reach the signup service. Check your connection or try again later.';

/** The signup card's own alert (Next adds a page-wide `role=alert` route announcer). */
export function formAlert(page: Page) {
  return page.getByRole('region', { name: 'Get the newsletter' }).getByRole('alert');
}
