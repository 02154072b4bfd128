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
  timezone?: string;
  /** Tokens that were understood, echoed in `Preference-Applied`. */
  applied: string[];
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
  const prefs: Preferences = { applied: [] };
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
    prefs.applied.push(`${name}=${value}`);
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
