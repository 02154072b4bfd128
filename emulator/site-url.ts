// The site's URL in a local stack (`npm run dev -- --port N`): Auth's site_url and its redirect allow-list follow it.
import type { AuthSettings } from './config.js';

/** Hosts that all mean "this machine"; config.toml lists both 127.0.0.1 and localhost. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `scheme://host[:port]` and the rest of an allow-list entry (its path glob); null for a glob host. */
function splitEntry(entry: string): { origin: URL; rest: string } | null {
  const match = /^(https?:\/\/[^/]+)(.*)$/.exec(entry);
  if (!match) return null;
  try {
    return { origin: new URL(match[1]!), rest: match[2]! };
  } catch {
    return null; // e.g. `https://*.example.com/**`: not tied to the site's origin
  }
}

/**
 * Auth settings for a site served at `siteUrl` instead of config.toml's `site_url`: the site URL
 * itself, and every `additional_redirect_urls` entry that pointed at the old site (its origin, or
 * the same port on another loopback name such as localhost) moved to the new one. Entries for
 * other origins (the e2e server, a staging host) stay as they are.
 */
export function authForSiteUrl(auth: AuthSettings, siteUrl: string): AuthSettings {
  const to = new URL(siteUrl);
  const site = siteUrl.replace(/\/+$/, '');
  let from: URL;
  try {
    from = new URL(auth.siteUrl);
  } catch {
    return { ...auth, siteUrl: site };
  }
  const sameLoopbackSite = (origin: URL) =>
    LOOPBACK.has(origin.hostname) &&
    LOOPBACK.has(from.hostname) &&
    LOOPBACK.has(to.hostname) &&
    origin.protocol === from.protocol &&
    origin.port === from.port;
  const moved = auth.additionalRedirectUrls.map((entry) => {
    const parts = splitEntry(entry);
    if (!parts) return entry;
    if (parts.origin.origin === from.origin) return `${to.origin}${parts.rest}`;
    if (sameLoopbackSite(parts.origin)) {
      return `${to.protocol}//${parts.origin.hostname}${to.port ? `:${to.port}` : ''}${parts.rest}`;
    }
    return entry;
  });
  return { ...auth, siteUrl: site, additionalRedirectUrls: [...new Set(moved)] };
}
