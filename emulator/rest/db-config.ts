// PostgREST's in-database configuration: `pgrst.*` settings of the `authenticator` role, read at
// start and on `NOTIFY pgrst, 'reload config'` (or a bare `NOTIFY pgrst`), over config.toml's
// values, as upstream's in-database config overrides its file and environment.
import type { Db } from '../db/types.js';
import type { Preferences } from './prefer.js';

/** `db-tx-end`: whether a request commits, and whether `Prefer: tx=` may override it. */
export type TxEnd = 'commit' | 'commit-allow-override' | 'rollback' | 'rollback-allow-override';

export interface RestDbConfig {
  aggregatesEnabled: boolean;
  planEnabled: boolean;
  /**
   * null: no `pgrst.db_tx_end` set. The emulator then honours `Prefer: tx=` as it always has
   * (upstream's own default, `commit`, ignores it; hosted's setting is not published).
   */
  txEnd: TxEnd | null;
  maxRows: number;
  extraSearchPath: string[];
}

export interface DbConfigStore {
  /** The current settings (the defaults until the first read finishes). */
  current(): RestDbConfig;
  /** Resolves once the start-up read is done. */
  ready(): Promise<void>;
  reload(): Promise<void>;
  close(): Promise<void>;
}

// As PostgREST's query: the authenticator's settings, those for this database winning over
// those for every database, only the `pgrst.` ones.
const READ_SQL = `
with setting as (
  select s.setdatabase as database, unnest(s.setconfig) as kv
  from pg_catalog.pg_db_role_setting s
  join pg_catalog.pg_roles r on r.oid = s.setrole
  where r.rolname = 'authenticator'
    and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
)
select distinct on (key) substr(kv, 7, strpos(kv, '=') - 7) as key, substr(kv, strpos(kv, '=') + 1) as value
from setting where kv like 'pgrst.%'
order by key, database desc`;

const TX_ENDS: readonly TxEnd[] = [
  'commit',
  'commit-allow-override',
  'rollback',
  'rollback-allow-override',
];

/** PostgREST's boolean reading: true/false, on/off, yes/no, 1/0 (any case). */
function parseBool(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (['true', 'on', 'yes', '1'].includes(v)) return true;
  if (['false', 'off', 'no', '0'].includes(v)) return false;
  return undefined;
}

/** Applies `key = value` pairs (without the `pgrst.` prefix, `-` or `_` alike) over `base`. */
export function applyDbSettings(
  base: RestDbConfig,
  settings: Array<{ key: string; value: string }>,
  warn: (message: string) => void = () => undefined,
): RestDbConfig {
  const out = { ...base };
  for (const { key, value } of settings) {
    const name = key.replace(/-/g, '_');
    const bad = () => warn(`[rest] ignoring pgrst.${key} = '${value}': not a valid value`);
    switch (name) {
      case 'db_aggregates_enabled':
      case 'db_plan_enabled': {
        const b = parseBool(value);
        if (b === undefined) bad();
        else if (name === 'db_aggregates_enabled') out.aggregatesEnabled = b;
        else out.planEnabled = b;
        break;
      }
      case 'db_tx_end':
        if ((TX_ENDS as readonly string[]).includes(value.trim()))
          out.txEnd = value.trim() as TxEnd;
        else bad();
        break;
      case 'db_max_rows':
      case 'max_rows':
        if (/^\s*\d+\s*$/.test(value)) out.maxRows = Number(value);
        else bad();
        break;
      case 'db_extra_search_path':
        out.extraSearchPath = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      default:
      // Other settings (db_schemas, jwt_secret, …) are not read from the database here.
    }
  }
  return out;
}

export function createDbConfigStore(
  db: Db,
  base: RestDbConfig,
  log: (message: string) => void,
): DbConfigStore {
  let config = base;
  let closed = false;
  let stopListening: (() => Promise<void>) | null = null;

  // Two notifications close together start two reads, and on a pooled server the earlier read
  // can answer last: only the latest read started may set the config, or a stale one would win.
  let started = 0;
  const reload = async () => {
    const mine = ++started;
    const { rows } = await db.query<{ key: string; value: string }>(READ_SQL);
    if (mine === started) config = applyDbSettings(base, rows, log);
  };
  const first = reload().catch((err: unknown) => {
    if (!closed) log(`[rest] cannot read in-database config: ${(err as Error).message}`);
  });
  const listening = db
    .listen('pgrst', (payload) => {
      // 'reload config', or an empty payload, which reloads both (PostgREST's listener).
      if (closed || (payload !== 'reload config' && payload !== '')) return;
      reload().catch((err: unknown) => {
        if (!closed) log(`[rest] in-database config reload failed: ${(err as Error).message}`);
      });
    })
    .then((stop) => {
      stopListening = stop;
    })
    .catch((err: unknown) =>
      log(`[rest] cannot listen for config reloads: ${(err as Error).message}`),
    );

  return {
    current: () => config,
    ready: () => first,
    reload,
    async close() {
      closed = true;
      await listening;
      await stopListening?.();
      await first;
    },
  };
}

/**
 * Whether the request's transaction ends in a rollback under `db-tx-end` (null: `Prefer: tx=` is
 * honoured, the emulator's default). Where the setting allows no override, the preference is
 * dropped, so `Preference-Applied` does not echo it, as upstream.
 */
export function endsInRollback(prefs: Preferences, txEnd: TxEnd | null): boolean {
  if (txEnd === null || txEnd === 'commit-allow-override') return prefs.tx === 'rollback';
  if (txEnd === 'rollback-allow-override') return prefs.tx !== 'commit';
  delete prefs.tx;
  return txEnd === 'rollback';
}
