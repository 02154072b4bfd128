// Runs one pg_cron job's command as its user in its own transaction, reporting what pg_cron records.
import { splitStatements } from '../db/sql-split.js';
import type { Db, QueryResult } from '../db/types.js';

export interface JobOutcome {
  status: 'succeeded' | 'failed';
  /** What pg_cron writes to cron.job_run_details.return_message. */
  message: string;
  pid: number | null;
}

const NO_TRANSACTION = /^\s*vacuum\b/i;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * pg_cron (libpq mode, as on Supabase) records the last result: a command's tag (PQcmdStatus,
 * e.g. "INSERT 0 1") or, for a statement returning rows, "<n> row(s)". The Db interface gives
 * rows and counts, not tags, so the tag is rebuilt from the statement's leading keywords.
 */
export function returnMessage(statement: string, result: QueryResult): string {
  const words = statement
    .replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '')
    .split(/[\s(;]+/, 3)
    .map((w) => w.toUpperCase());
  const [first = '', second = ''] = words;
  const n = result.affectedRows;
  const returning = result.fields.length > 0;
  if (first === 'INSERT' && !returning) return `INSERT 0 ${n}`;
  if (['UPDATE', 'DELETE', 'MERGE'].includes(first) && !returning) return `${first} ${n}`;
  if (returning || first === 'SELECT' || first === 'WITH' || first === 'VALUES') {
    const rows = result.rows.length;
    return `${rows} ${rows === 1 ? 'row' : 'rows'}`;
  }
  if (['CREATE', 'DROP', 'ALTER'].includes(first)) {
    // "CREATE OR REPLACE FUNCTION" → "CREATE FUNCTION", "CREATE UNIQUE INDEX" → "CREATE INDEX".
    const rest = statement.match(
      /^\s*\w+\s+(?:or\s+replace\s+)?(?:unique\s+|temp(?:orary)?\s+|unlogged\s+|materialized\s+)?(\w+)/i,
    );
    const object = rest?.[1]?.toUpperCase() ?? second;
    return `${first} ${statement.match(/materialized\s+view/i) ? 'MATERIALIZED VIEW' : object}`;
  }
  if (first === 'TRUNCATE') return 'TRUNCATE TABLE';
  if (first === 'LOCK') return 'LOCK TABLE';
  if (first === 'REFRESH') return 'REFRESH MATERIALIZED VIEW';
  return first;
}

/** libpq's PQresultErrorMessage at default verbosity, without the LINE/CONTEXT lines. */
export function errorMessage(err: unknown): string {
  const e = err as { message?: string; detail?: string; hint?: string };
  let text = `ERROR:  ${e.message ?? String(err)}\n`;
  if (e.detail) text += `DETAIL:  ${e.detail}\n`;
  if (e.hint) text += `HINT:  ${e.hint}\n`;
  return text;
}

/**
 * One transaction, as pg_cron runs a command: every statement or none. The session takes the
 * job user's role and that role's search_path (pg_cron connects as the user, so it gets its
 * per-role settings).
 */
export async function runJob(
  db: Db,
  username: string,
  command: string,
  /** Told the backend running the command, so a stop can cancel it. */
  onPid?: (pid: number) => void,
): Promise<JobOutcome> {
  let pid: number | null = null;
  const statements = splitStatements(command);
  // A lone VACUUM cannot run in a transaction block; pg_cron sends it on its own, and so do
  // we when the job's user is the emulator's own (no role to take on a pooled connection).
  if (statements.length === 1 && NO_TRANSACTION.test(statements[0]!)) {
    try {
      const { rows } = await db.query<{ me: string }>('select current_user as me');
      if (rows[0]?.me === username) {
        return {
          status: 'succeeded',
          message: returnMessage(statements[0]!, await db.query(statements[0]!)),
          pid,
        };
      }
    } catch (err) {
      return { status: 'failed', message: errorMessage(err), pid };
    }
  }
  try {
    const message = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ path: string | null; pid: number }>(
        `select (select substr(c, length('search_path=') + 1)
                   from pg_db_role_setting s
                   left join pg_roles r on r.oid = s.setrole
                   cross join unnest(s.setconfig) c
                  where c like 'search_path=%'
                    and (r.rolname = $1 or s.setrole = 0)
                    and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
                  order by s.setrole = 0, s.setdatabase = 0 limit 1) as path,
                pg_backend_pid() as pid`,
        [username],
      );
      pid = rows[0]?.pid ?? null;
      if (pid !== null) onPid?.(pid);
      await tx.exec(`set local role ${quoteIdent(username)}`);
      await tx.exec(`set local search_path = ${rows[0]?.path ?? '"$user", public'}`);
      // An empty command is libpq's PGRES_EMPTY_QUERY, which pg_cron reports as "0 rows".
      let last = '0 rows';
      for (const statement of statements) {
        last = returnMessage(statement, await tx.query(statement));
      }
      return last;
    });
    return { status: 'succeeded', message, pid };
  } catch (err) {
    return { status: 'failed', message: errorMessage(err), pid };
  }
}
