// The REST service (`/rest/v1`): routing, caller, profile, one transaction per request, one error handler.
import type { ProjectConfig } from '../config.js';
import type { Db, Queryable } from '../db/types.js';
import {
  plainFromWeb,
  webFromPlain,
  type PlainRequest,
  type PlainResponse,
} from '../gateway/plain.js';
import type { Service } from '../gateway/types.js';
import type { EmulatorKeys } from '../keys.js';
import { errorResponse, fromPgError, isPgError, RestError, tableNotFound } from './errors.js';
import { jsonText, parsePayload } from './payload.js';
import { parsePrefer, type Preferences } from './prefer.js';
import type { LevelQuery } from './ast.js';
import { parseQuery } from './query-params.js';
import { callerFromRequest, contextSetup, knownTimezone, type Caller } from './request-context.js';
import { openApiDocument } from './openapi.js';
import { isSingular, negotiate } from './response.js';
import { needsPlan } from './count-estimate.js';
import { handleRpc } from './rpc.js';
import { chooseFunction } from './rpc-overloads.js';
import type { SchemaCache } from './schema-cache.js';
import { createSchemaStore } from './schema-store.js';
import { createDbConfigStore, endsInRollback, type RestDbConfig } from './db-config.js';
import { checkAggregates } from './aggregates.js';
import { planRequest } from './explain.js';
import type { BodyShape } from './select-builder.js';
import { handleRead, handleWrite } from './table-handler.js';

export interface RestServiceOptions {
  db: Db;
  config: ProjectConfig;
  keys: EmulatorKeys;
  log?: (message: string, err?: unknown) => void;
}

const PREFIX = '/rest/v1';
/** Errors that may come from a stale cache: reload once and retry before answering them. */
const CACHE_MISSES = new Set(['PGRST200', 'PGRST202', 'PGRST204', 'PGRST205']);

/** Carries a finished response out of a transaction that must roll back (`Prefer: tx=rollback`). */
class Rollback {
  constructor(readonly response: PlainResponse) {}
}

export function createRestService({
  db,
  config,
  log = console.error,
}: RestServiceOptions): Service {
  const schemas = config.api.schemas;
  const store = createSchemaStore(db, schemas, log);
  const dbConfig = createDbConfigStore(
    db,
    {
      aggregatesEnabled: false,
      planEnabled: false,
      txEnd: null,
      maxRows: config.api.maxRows,
      extraSearchPath: config.api.extraSearchPath,
    },
    log,
  );

  function profile(req: PlainRequest): string {
    const read = req.method === 'GET' || req.method === 'HEAD';
    const requested = req.headers.get(read ? 'accept-profile' : 'content-profile');
    const schema = requested ?? schemas[0] ?? 'public';
    if (!schemas.includes(schema)) {
      throw new RestError(
        406,
        'PGRST106',
        `Invalid schema: ${schema}`,
        null,
        `Only the following schemas are exposed: ${schemas.join(', ')}`,
      );
    }
    return schema;
  }

  async function run(
    req: PlainRequest,
    cache: SchemaCache,
    caller: Caller,
    payload: unknown,
    payloadJson: string | null,
    settings: RestDbConfig,
  ): Promise<PlainResponse> {
    const url = req.url;
    const path = url.pathname.slice(PREFIX.length).replace(/\/+$/, '') || '/';
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const method = req.method;
    const schema = profile(req);
    const prefs = parsePrefer(req.headers.get('prefer'));
    const rollback = endsInRollback(prefs, settings.txEnd);
    if (segments.length === 0 && (method === 'GET' || method === 'HEAD')) {
      const body = JSON.stringify(openApiDocument(cache, schema, url.host));
      return {
        status: 200,
        headers: { 'content-type': 'application/openapi+json; charset=utf-8' },
        body: method === 'HEAD' ? null : body,
      };
    }
    const plan = planRequest(req.headers.get('accept'), settings.planEnabled);
    // A plan is negotiated for the media type it is for (`for="…"`).
    const accept = plan ? plan.forType : req.headers.get('accept');
    const readOnly = method === 'GET' || method === 'HEAD';
    /**
     * oneQuery: fn sends one query and nothing after it may roll back; prepare: its first query's
     * result columns are fixed (see TransactionOptions).
     */
    const inTransaction = async (
      fn: (tx: Queryable) => Promise<PlainResponse>,
      { oneQuery = false, prepare = false, fnSettings = [] as Array<[string, string]> } = {},
    ) => {
      // An unknown zone is dropped here, so it is neither set nor echoed in Preference-Applied.
      prefs.timezone = await knownTimezone(db, prefs.timezone, prefs.handling === 'strict');
      const setup = await contextSetup(db, {
        schema,
        extraSearchPath: settings.extraSearchPath,
        caller,
        method,
        path,
        headers: req.headers,
        timezone: prefs.timezone,
        switchableRoles: cache.switchableRoles,
        roleSettings: [
          ...(cache.roleSettings.get('authenticator') ?? []),
          ...(cache.roleSettings.get(caller.role) ?? []),
          // An rpc's hoisted settings come last, so they win over the roles' (as in PostgREST).
          ...fnSettings,
        ],
      });
      try {
        return await db.transaction(
          async (tx) => {
            const response = await fn(tx);
            if (rollback) throw new Rollback(response);
            return response;
          },
          { readOnly, setup, oneQuery, prepare },
        );
      } catch (err) {
        if (err instanceof Rollback) return err.response;
        throw err;
      }
    };

    if (segments.length === 2 && segments[0] === 'rpc') {
      if (!['GET', 'HEAD', 'POST'].includes(method)) throw unsupportedMethod(method);
      const isPost = method === 'POST';
      const candidates = cache.functions.get(`${schema}.${segments[1]}`) ?? [];
      const argNames = new Set(candidates.flatMap((fn) => fn.args.map((a) => a.name)));
      const query = parseQuery(url.searchParams, isPost ? undefined : argNames);
      checkAggregates(query.select, settings);
      const args: unknown = isPost ? payload : Object.fromEntries(query.rest);
      const names = isPost
        ? typeof args === 'object' && args !== null && !Array.isArray(args)
          ? Object.keys(args)
          : []
        : query.rest.map(([k]) => k);
      const fn = chooseFunction(cache, schema, segments[1]!, names, isPost);
      const shape = negotiate(accept, fn.mediaType);
      return inTransaction(
        (tx) =>
          handleRpc({
            tx,
            method,
            cache,
            fn,
            args,
            argsJson: isPost ? payloadJson : null,
            query,
            prefs,
            shape,
            plan,
          }),
        { fnSettings: fn.hoistedSettings },
      );
    }
    if (segments.length !== 1) {
      throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`);
    }
    const table = cache.tables.get(`${schema}.${segments[0]}`);
    if (!table) throw tableNotFound(schema, segments[0]!);
    const shape = negotiate(accept);
    const query = parseQuery(url.searchParams);
    checkAggregates(query.select, settings);
    if (readOnly) applyRangeHeader(req.headers.get('range'), query.levels.get('')!);
    const request = {
      method,
      cache,
      table,
      query,
      prefs,
      shape,
      payload,
      payloadJson,
      maxRows: settings.maxRows,
      plan,
    };
    // A read sends one query, and a read-only transaction cannot be changed by what follows it.
    if (readOnly) {
      return inTransaction((tx) => handleRead({ ...request, tx }), {
        // A planned or estimated total may need an EXPLAIN after the page's query.
        oneQuery: !plan && !needsPlan(prefs),
        prepare: !plan,
      });
    }
    if (['POST', 'PATCH', 'DELETE', 'PUT'].includes(method)) {
      // A plan of a write is its EXPLAIN (with analyze, the write runs and commits unless rolled back).
      return inTransaction((tx) => handleWrite({ ...request, tx }), {
        oneQuery: !plan && writeIsOneQuery(method, prefs, shape, rollback),
        prepare: !plan,
      });
    }
    throw unsupportedMethod(method);
  }

  async function handle(req: PlainRequest): Promise<PlainResponse> {
    let caller: Caller | null = null;
    try {
      caller = await callerFromRequest(req.headers);
      const text = ['POST', 'PATCH', 'PUT'].includes(req.method) ? await req.text() : null;
      const contentType = req.headers.get('content-type');
      const payload =
        text === null
          ? undefined
          : parsePayload(text, contentType, /^\/rest\/v1\/rpc\//.test(req.url.pathname));
      const payloadJson = text === null ? null : jsonText(text, contentType);
      let cache = await cacheOrPgrst002(store.get());
      await dbConfig.ready();
      const settings = dbConfig.current();
      try {
        return await run(req, cache, caller, payload, payloadJson, settings);
      } catch (err) {
        if (!(err instanceof RestError) || !CACHE_MISSES.has(err.code)) throw err;
        // Maybe DDL ran and its NOTIFY has not arrived yet: reload once, as a fresh PostgREST would know.
        cache = await cacheOrPgrst002(store.reload());
        return await run(req, cache, caller, payload, payloadJson, settings);
      }
    } catch (err) {
      if (err instanceof RestError) return errorResponse(err, req.method);
      if (isPgError(err))
        return errorResponse(fromPgError(err, (caller?.role ?? 'anon') === 'anon'), req.method);
      log(`[rest] ${req.method} ${req.url.pathname} failed`, err);
      return errorResponse(new RestError(500, 'PGRST000', 'Internal server error'), req.method);
    }
  }

  return {
    handle: async (req) => webFromPlain(await handle(plainFromWeb(req))),
    // The gateway's usual path: no web Request/Response objects (see gateway/plain.ts).
    handlePlain: handle,
    close: async () => {
      await store.close();
      await dbConfig.close();
    },
  };
}

/**
 * Whether handleWrite sends one statement and can fail no more once it answered, so its COMMIT
 * may go with it: not for PUT or a merging upsert (a second query counts the merged rows), not
 * when a check follows (max-affected with handling=strict, a singular body), not for tx=rollback
 * or missing=default.
 */
function writeIsOneQuery(
  method: string,
  prefs: Preferences,
  shape: BodyShape,
  rollback: boolean,
): boolean {
  if (method === 'PUT' || prefs.resolution === 'merge-duplicates' || rollback) {
    return false;
  }
  if (prefs.handling === 'strict' && prefs.maxAffected !== undefined) return false;
  // missing=default reads the column defaults first (column-defaults.ts).
  if (method === 'POST' && prefs.missing === 'default') return false;
  return !(prefs.return === 'representation' && isSingular(shape));
}

/** `Range: 0-9` (Range-Unit: items) pages a read like `offset=0&limit=10` (PostgREST's Range support). */
function applyRangeHeader(range: string | null, root: LevelQuery): void {
  if (!range) return;
  const m = /^(?:items=)?(\d+)-(\d*)$/.exec(range.trim());
  if (!m) return;
  const from = Number(m[1]);
  const to = m[2] === '' ? undefined : Number(m[2]);
  const offset = Math.max(from, root.offset ?? 0);
  const end = Math.min(
    to ?? Infinity,
    root.limit !== undefined ? (root.offset ?? 0) + root.limit - 1 : Infinity,
  );
  root.offset = offset;
  if (Number.isFinite(end)) root.limit = Math.max(0, end - offset + 1);
}

/** A schema cache that cannot load answers PostgREST's PGRST002 (503; clients retry GETs). */
async function cacheOrPgrst002(loading: Promise<SchemaCache>): Promise<SchemaCache> {
  try {
    return await loading;
  } catch {
    throw new RestError(
      503,
      'PGRST002',
      'Could not query the database for the schema cache. Retrying.',
    );
  }
}

function unsupportedMethod(method: string): RestError {
  return new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
}
