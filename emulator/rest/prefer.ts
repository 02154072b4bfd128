// Parses the `Prefer` header (RFC 7240 tokens PostgREST understands), comma-space joined by the client.
import { RestError } from './errors.js';

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  maxAffected?: number;
  tx?: 'commit' | 'rollback';
  /** Set only once Postgres knows the zone (see request-context's knownTimezone). */
  timezone?: string;
}

const ALLOWED: Record<string, readonly string[] | null> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
  'max-affected': null,
  timezone: null,
};

export function parsePrefer(header: string | null): Preferences {
  const prefs: Preferences = {};
  const invalid: string[] = [];
  for (const token of (header ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)) {
    const eq = token.indexOf('=');
    const name = eq === -1 ? token : token.slice(0, eq).trim();
    const value = eq === -1 ? '' : token.slice(eq + 1).trim();
    const allowed = ALLOWED[name];
    const valid =
      allowed === undefined
        ? false
        : allowed === null
          ? name === 'max-affected'
            ? /^\d+$/.test(value)
            : value !== ''
          : allowed.includes(value);
    if (!valid) {
      invalid.push(token);
      continue;
    }
    if (name === 'max-affected') prefs.maxAffected = Number(value);
    else if (name === 'timezone') prefs.timezone = value;
    else (prefs as unknown as Record<string, string>)[name] = value;
  }
  if (prefs.handling === 'strict' && invalid.length) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${invalid.join(', ')}`,
    );
  }
  return prefs;
}

/** What a response applies preferences to; each echoes its own set (PostgREST v12's Response.hs). */
export type PreferenceTarget = 'read' | 'insert' | 'update' | 'put' | 'delete' | 'rpc';

/**
 * `Preference-Applied`, or null: the preferences PostgREST v12 echoes for `target`, in its
 * prefAppliedHeader order (resolution, missing, return, count, tx, handling, timezone, then
 * max-affected, only with handling=strict). `resolution` only for an insert into a table with a
 * primary key or with on_conflict (`resolutionApplies`).
 */
export function preferenceApplied(
  prefs: Preferences,
  target: PreferenceTarget,
  resolutionApplies = false,
): string | null {
  const write = target !== 'read' && target !== 'rpc';
  const values = [
    target === 'insert' &&
      resolutionApplies &&
      prefs.resolution &&
      `resolution=${prefs.resolution}`,
    (target === 'insert' || target === 'update') && prefs.missing && `missing=${prefs.missing}`,
    write && prefs.return && `return=${prefs.return}`,
    prefs.count && `count=${prefs.count}`,
    prefs.tx && `tx=${prefs.tx}`,
    prefs.handling && `handling=${prefs.handling}`,
    prefs.timezone && `timezone=${prefs.timezone}`,
    (target === 'update' || target === 'delete' || target === 'rpc') &&
      prefs.handling === 'strict' &&
      prefs.maxAffected !== undefined &&
      `max-affected=${prefs.maxAffected}`,
  ].filter((v): v is string => typeof v === 'string');
  return values.length ? values.join(', ') : null;
}
