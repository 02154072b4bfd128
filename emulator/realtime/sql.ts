// Loads the service's SQL: setup.sql (run at start) and the named queries of queries.sql.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));

const NAMES = [
  'published-tables',
  'captured-tables',
  'find-table',
  'table-shape',
  'role-privileges',
  'role-exists',
  'set-caller',
  'arm',
  'disarm',
  'writers',
  'writers-left',
  'take-change',
  'purge-changes',
  'get-message',
  'probe-messages',
  'probe-read',
  'probe-write',
  'messages-table',
  'replay-messages',
  'visible-to',
] as const;

export type QueryName = (typeof NAMES)[number];

/** Splits a file of `-- name: x` sections; a name the code expects but the file lacks throws. */
function loadQueries(text: string): Record<QueryName, string> {
  const found = new Map<string, string>();
  for (const section of text.split(/^-- name: /m).slice(1)) {
    const newline = section.indexOf('\n');
    found.set(section.slice(0, newline).trim(), section.slice(newline + 1).trim());
  }
  const out = {} as Record<QueryName, string>;
  for (const name of NAMES) {
    const sql = found.get(name);
    if (!sql) throw new Error(`realtime/queries.sql lacks query "${name}"`);
    out[name] = sql;
  }
  return out;
}

export const SQL = loadQueries(readFileSync(here('queries.sql'), 'utf8'));
export const SETUP_SQL = readFileSync(here('setup.sql'), 'utf8');
