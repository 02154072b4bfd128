// Loads queries.sql into named statements at boot; a missing or unknown name stops the emulator.
import { readFileSync } from 'node:fs';

const NAMES = [
  'user-by-id',
  'user-by-email',
  'insert-user',
  'insert-identity',
  'identities-by-user',
  'update-identity-email',
  'confirm-email',
  'set-confirmation-token',
  'set-recovery-token',
  'clear-recovery-token',
  'set-invited',
  'set-email-change',
  'set-email-change-current',
  'email-change-halfway',
  'delete-user-one-time-tokens',
  'apply-email-change',
  'set-last-sign-in',
  'set-password',
  'set-user-metadata',
  'set-app-metadata',
  'set-role',
  'set-banned-until',
  'set-email-direct',
  'unconfirm-email',
  'delete-user',
  'soft-delete-user',
  'list-users',
  'count-users',
  'insert-session',
  'session-by-id',
  'touch-session',
  'delete-session',
  'delete-user-sessions',
  'delete-other-sessions',
  'insert-amr',
  'amr-by-session',
  'insert-refresh-token',
  'refresh-token-by-token',
  'active-refresh-token',
  'revoke-refresh-token',
  'revoke-session-tokens',
  'upsert-one-time-token',
  'delete-one-time-token',
  'user-by-token-hash',
  'insert-flow-state',
  'latest-flow-state',
  'issue-auth-code',
  'flow-state-by-code',
  'delete-flow-state',
  'insert-audit',
  'user-by-email-change',
] as const;

export type QueryName = (typeof NAMES)[number];

/** Splits a file of `-- name: x` sections into statements. */
export function parseNamedQueries(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (name) out.set(name, body.join('\n').trim());
  };
  for (const line of text.split('\n')) {
    const m = /^--\s*name:\s*(\S+)\s*$/.exec(line);
    if (m) {
      flush();
      name = m[1]!;
      body = [];
    } else if (name && !line.startsWith('--')) {
      body.push(line);
    }
  }
  flush();
  return out;
}

function load(): Record<QueryName, string> {
  const parsed = parseNamedQueries(readFileSync(new URL('./queries.sql', import.meta.url), 'utf8'));
  const missing = NAMES.filter((n) => !parsed.get(n));
  const unknown = [...parsed.keys()].filter((n) => !(NAMES as readonly string[]).includes(n));
  if (missing.length || unknown.length) {
    throw new Error(
      `auth/queries.sql: missing ${missing.join(', ') || '-'}; unknown ${unknown.join(', ') || '-'}`,
    );
  }
  return Object.fromEntries(NAMES.map((n) => [n, parsed.get(n)!])) as Record<QueryName, string>;
}

export const SQL: Record<QueryName, string> = load();
