// Which `redirect_to` GoTrue honours: the site URL's host or an additional_redirect_urls glob.

/**
 * Compiles one allow-list entry the way GoTrue does (gobwas/glob with `.` and `/` as separators):
 * `*` spans no separator, `**` spans anything, `?` is one non-separator character.
 */
export function compileRedirectGlob(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') {
      re += '[^./]*';
    } else if (c === '?') {
      re += '[^./]';
    } else {
      re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

export interface RedirectPolicy {
  siteUrl: string;
  additionalRedirectUrls: string[];
}

/** Returns `requested` when allowed, else the site URL (GoTrue's utilities.GetReferrer). */
export function resolveRedirect(
  policy: RedirectPolicy,
  requested: string | null | undefined,
): string {
  if (!requested) return policy.siteUrl;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return policy.siteUrl;
  }
  try {
    if (new URL(policy.siteUrl).hostname === target.hostname) return requested;
  } catch {
    // A broken site_url matches nothing; the allow-list may still match.
  }
  for (const entry of policy.additionalRedirectUrls) {
    if (entry === requested || compileRedirectGlob(entry).test(requested)) return requested;
  }
  return policy.siteUrl;
}
