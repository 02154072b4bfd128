// Which overload of an /rpc function a request calls, and which functions /rpc can call at all (PostgREST's findProc).
import { RestError } from './errors.js';
import type { DbFunction, SchemaCache } from './schema-cache.js';

const isJsonType = (t: string) => t === 'json' || t === 'jsonb';

/** Types PostgREST accepts for a function's one unnamed parameter (its schema cache's `callable`). */
const UNNAMED_TYPES = new Set(['bytea', 'json', 'jsonb', 'text', 'xml']);

/**
 * Whether PostgREST's schema cache holds the function at all: none of its parameters unnamed, or
 * exactly one, of a type a raw body can be (bytea, json, jsonb, text, xml). Others — `f(int)`,
 * `f(int, int)`, a computed field's `f(books)` — are not found by /rpc (PGRST202).
 */
function callable(fn: DbFunction): boolean {
  const unnamed = fn.args.filter((a) => a.name === '');
  return unnamed.length === 0 || (unnamed.length === 1 && UNNAMED_TYPES.has(unnamed[0]!.type));
}

/** One unnamed parameter: PostgREST calls it positionally with the whole body (OnePosParam). */
export function onePositional(fn: DbFunction): boolean {
  return fn.args.length === 1 && fn.args[0]!.name === '';
}

/** A function taking one unnamed json/jsonb argument receives the whole POST body. */
function takesWholeBody(fn: DbFunction): boolean {
  return onePositional(fn) && isJsonType(fn.args[0]!.type);
}

const sameSet = (a: Set<string>, b: Set<string>) =>
  a.size === b.size && [...a].every((x) => b.has(x));

/** PostgREST's `matchesParams`: the given keys cover the required parameters, and fit the rest. */
function matchesParams(fn: DbFunction, keys: Set<string>): boolean {
  if (fn.args.length === 0) return keys.size === 0;
  const names = fn.args.map((a) => a.name);
  const required = new Set(names.slice(0, names.length - fn.nDefaults));
  const optional = new Set(names.slice(names.length - fn.nDefaults));
  if (optional.size === 0) return sameSet(keys, required);
  if (required.size === 0) return [...keys].every((k) => optional.has(k));
  return sameSet(new Set([...keys].filter((k) => !optional.has(k))), required);
}

/**
 * Overloads in PostgREST's order (its Routine Ord): fewer parameters first, then the parameter
 * lists compared name by name, type by type. PGRST203 lists candidates in this order. (PostgREST
 * compares the functions' comments before their parameters; the emulator's cache has none.)
 */
function upstreamOrder(a: DbFunction, b: DbFunction): number {
  if (a.args.length !== b.args.length) return a.args.length - b.args.length;
  const required = (fn: DbFunction, i: number) => i < fn.args.length - fn.nDefaults;
  for (let i = 0; i < a.args.length; i++) {
    const [x, y] = [a.args[i]!, b.args[i]!];
    if (x.name !== y.name) return x.name < y.name ? -1 : 1;
    if (x.type !== y.type) return x.type < y.type ? -1 : 1;
    if (required(a, i) !== required(b, i)) return required(a, i) ? 1 : -1;
  }
  return 0;
}

/**
 * Picks the overload matching the given argument names as PostgREST's `findProc` does: the one
 * function whose parameters match the keys; failing any, the one taking a single unnamed json or
 * jsonb parameter (POST only); more than one either way is PGRST203, never a guess that Postgres
 * would then refuse (42725).
 */
export function chooseFunction(
  cache: SchemaCache,
  schema: string,
  name: string,
  argNames: string[],
  isPost: boolean,
): DbFunction {
  const candidates = (cache.functions.get(`${schema}.${name}`) ?? [])
    .filter(callable)
    .sort(upstreamOrder);
  const keys = new Set(argNames);
  const matching = candidates.filter((fn) => matchesParams(fn, keys));
  const fallback = isPost
    ? candidates.filter((fn) => !matching.includes(fn) && takesWholeBody(fn))
    : [];
  const matches = matching.length ? matching : fallback;
  if (matches.length === 1) return matches[0]!;
  // PostgREST's NoRpc wording (Error.hs): argument names sorted, as its JSON key map orders them.
  const sorted = [...argNames].sort().join(', ');
  const signature = argNames.length
    ? `${schema}.${name}(${sorted})`
    : `${schema}.${name} without parameters`;
  if (matches.length === 0) {
    const searched = argNames.length
      ? ` with parameter${argNames.length > 1 ? 's' : ''} ${sorted}`
      : ' without parameters';
    throw new RestError(
      404,
      'PGRST202',
      `Could not find the function ${signature} in the schema cache`,
      `Searched for the function ${schema}.${name}${searched}${
        isPost ? ' or with a single unnamed json/jsonb parameter' : ''
      }, but no matches were found in the schema cache.`,
    );
  }
  throw new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${matches
      .map((fn) => `${schema}.${name}(${fn.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`)
      .join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}
