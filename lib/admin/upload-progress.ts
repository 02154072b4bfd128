// A Storage upload with progress events: supabase-js's upload() reports none and the resumable
// (TUS) endpoint is not served by the local emulator, so the browser sends the object itself with
// XMLHttpRequest to the same REST route upload() uses (POST /storage/v1/object/<bucket>/<path>).
import { QueryError } from '../use-query';

export interface UploadRequest {
  /** Project URL without a trailing slash. */
  supabaseUrl: string;
  apiKey: string;
  /** The signed-in user's access token: Storage checks the bucket's policies as that user. */
  accessToken: string;
  bucket: string;
  path: string;
  body: Blob;
  contentType: string;
  /** Fraction sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** The REST address of an object: each path segment encoded, the slashes kept. */
export function objectUrl(supabaseUrl: string, bucket: string, path: string): string {
  const key = path.split('/').map(encodeURIComponent).join('/');
  return `${supabaseUrl}/storage/v1/object/${encodeURIComponent(bucket)}/${key}`;
}

/**
 * Storage answers errors with HTTP 400 and the real status as a string in `statusCode`
 * (supabase/storage error-handler.ts): this turns that body into a QueryError.
 */
export function uploadError(status: number, text: string): QueryError {
  let body: { message?: unknown; statusCode?: unknown; error?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON (a proxy's page): keep the generic message below.
  }
  const real = Number(body.statusCode ?? status);
  const message =
    real === 413
      ? 'The file is larger than the 50 MB the imports bucket accepts.'
      : typeof body.message === 'string' && body.message
        ? body.message
        : `The upload failed (HTTP ${status}).`;
  return new QueryError(message, {
    status: Number.isFinite(real) ? real : status,
    code: typeof body.error === 'string' ? body.error : undefined,
  });
}

/** Uploads `body`, never overwriting; resolves with the object path or rejects with a QueryError. */
export function uploadWithProgress(request: UploadRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', objectUrl(request.supabaseUrl, request.bucket, request.path));
    xhr.setRequestHeader('apikey', request.apiKey);
    xhr.setRequestHeader('Authorization', `Bearer ${request.accessToken}`);
    xhr.setRequestHeader('Content-Type', request.contentType);
    xhr.setRequestHeader('x-upsert', 'false');
    xhr.setRequestHeader('cache-control', 'max-age=3600');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        request.onProgress?.(event.loaded / event.total);
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        request.onProgress?.(1);
        resolve(request.path);
      } else {
        reject(uploadError(xhr.status, xhr.responseText));
      }
    };
    xhr.onerror = () =>
      reject(new QueryError('The upload failed: the server could not be reached.'));
    xhr.onabort = () => reject(new QueryError('The upload was cancelled.', { code: 'aborted' }));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });
}
