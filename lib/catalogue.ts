// The messages of SPEC §8's error catalogue that the site itself shows when an answer is not a
// catalogue error: no connection, a server failure, a refusal. One copy, used by every page.
export const CATALOGUE_MESSAGES = {
  // A browser cannot tell a network failure from a response without CORS headers (e.g. the
  // platform's 404 for a function that is not deployed, cf. supabase/supabase#9373), so say both.
  unreachable: 'We could not reach the server. Check your connection and try again.',
  internal: 'Something went wrong. Nothing was changed.',
  unauthenticated: 'Sign in to continue.',
  forbidden: 'You do not have permission to do that.',
} as const;

/** What browsers and runtimes call a request that got no answer (Chrome, Firefox, Safari, Node). */
const NETWORK_FAILURE =
  /^(?:(?:TypeError|FetchError|AbortError|StorageUnknownError): )?(?:Failed to fetch|NetworkError when attempting to fetch resource|Load failed|fetch failed|The user aborted a request|signal is aborted)/i;

/** True for the message of a fetch that never got an answer. */
export function isNetworkFailureMessage(message: string): boolean {
  return NETWORK_FAILURE.test(message.trim());
}
