// Lets `create extension pg_cron|pg_net` in migrations succeed where the emulator's stand-ins serve instead.
import { splitStatements } from '../db/sql-split.js';
import type { Queryable } from '../db/types.js';

/** Extension → a function its stand-in (db/bootstrap/60-cron.sql, 61-net.sql) creates. */
const SHIMS: Record<string, string> = {
  pg_cron: 'cron.schedule(text,text,text)',
  pg_net: 'net.http_post(text,jsonb,jsonb,jsonb,integer)',
};

const CREATE_EXTENSION =
  /^create\s+extension\s+(?:if\s+not\s+exists\s+)?(?:"(pg_cron|pg_net)"|(pg_cron|pg_net)\b)/i;

/** The statement without the comments and blanks before it. */
function leadingCode(statement: string): string {
  let text = statement;
  for (;;) {
    const next = text.replace(/^\s+/, '').replace(/^--[^\n]*(\n|$)/, '');
    const block = next.match(/^\/\*[\s\S]*?\*\//);
    const stripped = block ? next.slice(block[0].length) : next;
    if (stripped === text) return text;
    text = stripped;
  }
}

/**
 * Blanks out each `create extension` of the given extensions (every character but newlines
 * becomes a space, the `;` stays), so what remains is an empty statement and every later error
 * still reports the right line and position. Pure; exported for tests.
 */
export function blankCreateExtension(sql: string, extensions: ReadonlySet<string>): string {
  let out = sql;
  let from = 0;
  for (const statement of splitStatements(sql)) {
    const at = sql.indexOf(statement, from);
    if (at === -1) continue;
    from = at + statement.length;
    const match = leadingCode(statement).match(CREATE_EXTENSION);
    const name = (match?.[1] ?? match?.[2])?.toLowerCase();
    if (!name || !extensions.has(name)) continue;
    out = out.slice(0, at) + statement.replace(/[^\n]/g, ' ') + out.slice(at + statement.length);
  }
  return out;
}

/**
 * pg_cron and pg_net are not installable on PGlite or Debian's PostgreSQL, so a migration's
 * `create extension` of either becomes a no-op there when the emulator's stand-in exists (the
 * stand-in provides the same `cron`/`net` objects). Where the real extension is available, or the
 * stand-in is missing, the statement runs unchanged and Postgres decides.
 */
export async function withExtensionShims(tx: Queryable, sql: string): Promise<string> {
  if (!/create\s+extension/i.test(sql)) return sql;
  const { rows } = await tx.query<{ name: string }>(
    `select e.name from unnest($1::text[], $2::text[]) as e(name, probe)
     where not exists (select 1 from pg_available_extensions a where a.name = e.name)
       and to_regprocedure(e.probe) is not null`,
    [Object.keys(SHIMS), Object.values(SHIMS)],
  );
  if (!rows.length) return sql;
  return blankCreateExtension(sql, new Set(rows.map((r) => r.name)));
}
