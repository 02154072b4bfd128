// The waitlist query string (pure, so vitest tests it too): a code that could be a referral code
// and an optional list slug. Anything that cannot match is null, answered as not_found.
export interface WaitlistQuery {
  code: string;
  list: string | null;
}

export function waitlistQuery(params: URLSearchParams): WaitlistQuery | null {
  const code = params.get('code') ?? '';
  const list = params.get('list') || null;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) return null;
  if (list !== null && (list.length > 48 || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(list))) return null;
  return { code, list };
}
