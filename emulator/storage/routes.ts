// The storage route table, one line per endpoint (paths relative to /storage/v1), and its matcher.
import * as buckets from './buckets.js';
import { listObjects } from './list.js';
import { listObjectsV2 } from './list-v2.js';
import * as objects from './objects.js';
import { renderAuthenticatedImage, renderPublicImage } from './render.js';
import type { RouteHandler } from './route.js';
import * as sign from './sign.js';
import { copyObject, moveObject } from './transfer.js';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** `:bucket` is one segment; a trailing `*` is the rest of the path (the object key, non-empty). */
export const ROUTES: ReadonlyArray<readonly [Method[], string, RouteHandler]> = [
  [['GET'], '/bucket', buckets.listBuckets],
  [['POST'], '/bucket', buckets.createBucket],
  [['GET'], '/bucket/:bucket', buckets.getBucket],
  [['PUT'], '/bucket/:bucket', buckets.updateBucket],
  [['DELETE'], '/bucket/:bucket', buckets.deleteBucket],
  [['POST'], '/bucket/:bucket/empty', buckets.emptyBucket],
  // Static segments win over a bucket named like them, as in upstream's fastify router.
  [['POST'], '/object/move', moveObject],
  [['POST'], '/object/copy', copyObject],
  [['POST'], '/object/list/:bucket', listObjects],
  [['POST'], '/object/list-v2/:bucket', listObjectsV2],
  [['POST'], '/object/sign/:bucket/*', sign.signObject],
  [['POST'], '/object/sign/:bucket', sign.signObjects],
  [['GET', 'HEAD'], '/object/sign/:bucket/*', sign.getSignedObject],
  [['POST'], '/object/upload/sign/:bucket/*', sign.signUpload],
  [['PUT'], '/object/upload/sign/:bucket/*', sign.uploadToSignedUrl],
  [['HEAD'], '/object/public/:bucket/*', objects.objectHead(true)],
  [['HEAD'], '/object/authenticated/:bucket/*', objects.objectHead(false)],
  [['HEAD'], '/object/:bucket/*', objects.objectHead(false)],
  [['GET'], '/object/public/:bucket/*', objects.getPublicObject],
  [['GET'], '/object/authenticated/:bucket/*', objects.getAuthenticatedObject],
  [['GET'], '/object/info/public/:bucket/*', objects.objectInfo(true)],
  [['GET'], '/object/info/authenticated/:bucket/*', objects.objectInfo(false)],
  [['GET'], '/object/info/:bucket/*', objects.objectInfo(false)],
  [['POST', 'PUT'], '/object/:bucket/*', objects.uploadObject],
  [['GET'], '/object/:bucket/*', objects.getObjectOptionalJwt],
  [['DELETE'], '/object/:bucket/*', objects.deleteObject],
  [['DELETE'], '/object/:bucket', objects.deleteObjects],
  [['GET', 'HEAD'], '/render/image/public/:bucket/*', renderPublicImage],
  [['GET', 'HEAD'], '/render/image/authenticated/:bucket/*', renderAuthenticatedImage],
  [['GET', 'HEAD'], '/render/image/sign/:bucket/*', sign.renderSignedImage],
];

/** Upstream features the emulator lacks: answered 501 naming them, never a misleading 404. */
export const NOT_IMPLEMENTED: ReadonlyArray<readonly [string, string]> = [
  ['/upload/resumable', 'TUS resumable uploads (/upload/resumable)'],
  ['/s3', 'the S3 protocol (/s3)'],
  ['/vector', 'vector buckets (/vector)'],
  ['/iceberg', 'analytics buckets (/iceberg)'],
  ['/cdn', 'CDN cache purge (/cdn)'],
];

export function notImplementedFeature(path: string): string | null {
  const hit = NOT_IMPLEMENTED.find(([prefix]) => path === prefix || path.startsWith(prefix + '/'));
  return hit ? hit[1] : null;
}

export interface RouteMatch {
  handler: RouteHandler;
  params: Record<string, string>;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Matches a path (without the /storage/v1 prefix) against the table. */
export function matchStorageRoute(method: string, path: string): RouteMatch | null {
  const parts = path.split('/').slice(1);
  for (const [methods, pattern, handler] of ROUTES) {
    if (!methods.includes(method as Method)) continue;
    const segments = pattern.split('/').slice(1);
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const seg = segments[i]!;
      const part = parts[i];
      if (seg === '*') {
        const rest = parts.slice(i).join('/');
        if (!rest) ok = false;
        else params.key = decode(rest);
        break;
      }
      if (part === undefined || part === '') ok = false;
      else if (seg.startsWith(':')) params[seg.slice(1)] = decode(part);
      else if (seg !== part) ok = false;
      if (ok && i === segments.length - 1 && parts.length !== segments.length) ok = false;
    }
    if (ok) return { handler, params };
  }
  return null;
}
