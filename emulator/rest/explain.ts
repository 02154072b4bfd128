// PostgREST's execution plans: `Accept: application/vnd.pgrst.plan+json|+text; for="…";
// options=analyze|verbose|settings|buffers|wal` answers Postgres's EXPLAIN of the query the
// request would run, when pgrst.db_plan_enabled is on (supabase-js's `.explain()`).
import type { Queryable } from '../db/types.js';
import type { PlainResponse } from '../gateway/plain.js';
import { RestError } from './errors.js';
import { acceptOrder } from './response.js';

export interface PlanRequest {
  format: 'json' | 'text';
  /** The media type the plan is for (`for="…"`), default application/json. */
  forType: string;
  options: string[];
}

const PLAN = /^application\/vnd\.pgrst\.plan(\+json|\+text)?$/i;
const OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

/**
 * The plan the best range of `Accept` asks for, or null when it asks for something else. With
 * plans disabled a plan type is not offered: PGRST107, as upstream leaves it out of its handlers.
 */
export function planRequest(accept: string | null, enabled: boolean): PlanRequest | null {
  if (!accept) return null;
  const best = acceptOrder(accept)[0] ?? '';
  const [type = '', ...params] = best.split(';');
  const match = PLAN.exec(type.trim());
  if (!match) return null;
  if (!enabled) {
    throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
  }
  const plan: PlanRequest = {
    format: match[1]?.toLowerCase() === '+json' ? 'json' : 'text',
    forType: 'application/json',
    options: [],
  };
  for (const param of params) {
    const at = param.indexOf('=');
    if (at === -1) continue;
    const name = param.slice(0, at).trim().toLowerCase();
    const value = param
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'for' && value) plan.forType = value;
    if (name === 'options') {
      plan.options = value
        .split('|')
        .map((o) => o.trim().toLowerCase())
        .filter((o) => OPTIONS.includes(o));
    }
  }
  return plan;
}

/** Runs EXPLAIN over the statement the request would send and answers the plan. */
export async function explainResponse(
  tx: Queryable,
  sql: string,
  values: unknown[],
  plan: PlanRequest,
  method: string,
): Promise<PlainResponse> {
  const opts = [`format ${plan.format}`, ...plan.options].join(', ');
  const options = plan.options.length ? `; options=${plan.options.join('|')}` : '';
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (${opts}) ${sql}`, values);
  let body: string;
  if (plan.format === 'json') {
    const raw = rows[0]?.['QUERY PLAN'];
    body = typeof raw === 'string' ? raw : JSON.stringify(raw);
  } else {
    body = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
  }
  // Upstream joins the plan's rows with a newline after each, the one JSON row included.
  body += '\n';
  return {
    status: 200,
    headers: {
      'content-type': `application/vnd.pgrst.plan+${plan.format}; for="${forName(plan.forType)}"${options}; charset=utf-8`,
    },
    body: method === 'HEAD' ? null : body,
  };
}

/** The `for` type as upstream names it back (its MediaType's canonical form). */
function forName(forType: string): string {
  const [type = '', ...params] = forType.split(';').map((p) => p.trim().toLowerCase());
  const stripped = params.includes('nulls=stripped') ? ';nulls=stripped' : '';
  if (type === 'application/vnd.pgrst.object' || type === 'application/vnd.pgrst.object+json') {
    return `application/vnd.pgrst.object+json${stripped}`;
  }
  if (type === 'application/vnd.pgrst.array+json') {
    return stripped ? `application/vnd.pgrst.array+json${stripped}` : 'application/json';
  }
  return forType;
}
