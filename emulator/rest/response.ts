// Response pieces shared by reads, writes and RPC: media-type negotiation, Content-Range and status.
import { RestError } from './errors.js';
import type { Preferences } from './prefer.js';
import type { BodyShape } from './select-builder.js';

/**
 * The media ranges of `Accept` best first, as wai-extra's parseHttpAccept (which PostgREST uses)
 * orders them: spaces dropped, stably sorted by q (1 when absent or unreadable), then by
 * specificity (parameters before `;q=` minus `*`s), and `;q=` with what follows it cut off.
 */
export function acceptOrder(accept: string): string[] {
  return accept
    .split(',')
    .map((raw) => {
      const part = raw.replace(/ /g, '');
      const at = part.indexOf(';q=');
      const range = at === -1 ? part : part.slice(0, at);
      const qText = at === -1 ? '' : (part.slice(at + 3).split(';')[0] ?? '');
      // Haskell's `reads` takes a leading number and ignores the rest.
      const qNumber = /^\d+(\.\d+)?([eE][-+]?\d+)?/.exec(qText);
      const q = qNumber ? Number(qNumber[0]) : 1;
      const specificity = (range.match(/;/g)?.length ?? 0) - (range.match(/\*/g)?.length ?? 0);
      return { range, q, specificity };
    })
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.index - b.index)
    .map((entry) => entry.range);
}

/**
 * Picks the body shape from `Accept` (PostgREST's media-type negotiation: the best acceptable
 * range in acceptOrder wins).
 * `produces`: the media type an rpc's function answers as it is (DbFunction.mediaType), which
 * PostgREST looks up before its builtin handlers.
 */
export function negotiate(accept: string | null, produces: string | null = null): BodyShape {
  if (!accept || accept.trim() === '') return 'array';
  for (const part of acceptOrder(accept)) {
    const [type = '', ...rawParams] = part.split(';').map((s) => s.trim().toLowerCase());
    if (produces !== null && type === produces) return 'media';
    const stripped = rawParams.includes('nulls=stripped');
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'array';
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') {
      return stripped ? 'stripped-object' : 'object';
    }
    if (type === 'application/vnd.pgrst.array+json') return stripped ? 'stripped' : 'array';
    if (type === 'text/csv') return 'csv';
    if (type === 'application/geo+json') return 'geojson';
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
}

export const isSingular = (shape: BodyShape) => shape === 'object' || shape === 'stripped-object';

/** PostgREST's Content-Type of a handler's media type: a charset only for the types it knows. */
export function mediaContentType(mediaType: string): string {
  const known = ['text/plain', 'text/xml', 'text/csv', 'application/json', 'application/geo+json'];
  return known.includes(mediaType) ? `${mediaType}; charset=utf-8` : mediaType;
}

/**
 * HEAD builds no body: PostgREST negotiates its NoAgg handler for it (an empty text), so what
 * only the body's aggregate could fail on (GeoJSON without PostGIS) does not fail a HEAD.
 */
export const headOrBody = (method: string, body: string) => (method === 'HEAD' ? `''` : body);

export function contentType(shape: BodyShape): string {
  if (shape === 'csv') return 'text/csv; charset=utf-8';
  if (shape === 'geojson') return 'application/geo+json; charset=utf-8';
  return isSingular(shape)
    ? 'application/vnd.pgrst.object+json; charset=utf-8'
    : 'application/json; charset=utf-8';
}

/** `0-9/123`, `*\/0` for an empty page, `/*` when the total is unknown (contract §1.3). */
export function contentRange(offset: number, pageTotal: number, total: number | null): string {
  const range = pageTotal > 0 ? `${offset}-${offset + pageTotal - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** PostgREST's rangeStatus: 416 past the end, 206 for a partial page of a known total. */
export function readStatus(offset: number, pageTotal: number, total: number | null): number {
  if (total === null) return 200;
  if (offset > total) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
      null,
      { 'Content-Range': `*/${total}` },
    );
  }
  return pageTotal < total ? 206 : 200;
}

/** 406 PGRST116 when `.single()` did not get exactly one row (PostgREST v13+ wording). */
export function checkSingular(shape: BodyShape, rows: number): void {
  if (!isSingular(shape) || rows === 1) return;
  throw new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  );
}

/** PGRST124: with `handling=strict`, `max-affected=N` caps how many rows a write or rpc may touch. */
export function checkMaxAffected(prefs: Preferences, affected: number): void {
  if (prefs.handling !== 'strict' || prefs.maxAffected === undefined) return;
  if (affected > prefs.maxAffected) {
    throw new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${affected} rows`,
    );
  }
}
