// What the signup form says (SPEC §8), apart from the subscribe rules in lib/subscribe.ts: the home
// page shows "not open yet" from the start, and loads those rules only when the form is submitted.
export const NAME_MAX_LENGTH = 100;

export const MESSAGES = {
  invalid_email: 'Enter a valid email address.',
  name_too_long: `Name must be at most ${NAME_MAX_LENGTH} characters.`,
  name_control: 'Name cannot contain line breaks or control characters.',
  no_lists: 'Choose at least one list.',
  not_open: 'Signups are not open yet.',
  // A browser cannot tell a network failure from a response without CORS headers (e.g. the
  // platform's 404 for a function that is not deployed, cf. supabase/supabase#9373), so say both.
  unreachable: 'We could not reach the signup service. Check your connection or try again later.',
  internal: 'Something went wrong. Nothing was changed.',
} as const;

/** The line under the Subscribe button: whether a confirmation email follows. */
export const SIGNUP_HINTS = {
  confirm: 'We will email you a link to confirm your address. Unsubscribe any time.',
  single: 'Unsubscribe any time with one click.',
} as const;

/** What the form says once the function accepted the address (the address itself follows `lead`). */
export const SIGNUP_SUCCESS = {
  pending: {
    title: 'Check your inbox',
    lead: 'We sent a confirmation link to ',
    hint: 'Open it within 7 days to confirm. Nothing there? Check your spam folder.',
  },
  confirmed: { title: 'You are subscribed', lead: 'Thanks! The next issue goes to ', hint: null },
} as const;
