// Storage in Chromium: the unchanged supabase-js browser bundle uploads a File (multipart, empty field
// name) under RLS, downloads it back, and the browser loads public and signed URLs without a token.
import { expect, test } from '@playwright/test';
import {
  openClient,
  type PageWindow,
  SECRET_KEY,
  signUpInPage,
  sql,
  unique,
} from './browser-client';
import { E2E_SUPABASE_URL } from './ports';

// A 1×1 PNG, so an <img> can prove the browser decoded what the public URL served.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A private bucket whose policies let each signed-in user write and read their own folder only. */
async function ownFolderBucket(): Promise<string> {
  const bucket = unique('own').replaceAll('_', '-');
  await sql(`
    insert into storage.buckets (id, name) values ('${bucket}', '${bucket}');
    create policy "${bucket} insert own folder" on storage.objects for insert to authenticated
      with check (bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "${bucket} read own folder" on storage.objects for select to authenticated
      using (bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text);
  `);
  return bucket;
}

test('a signed-in browser uploads a File into its own folder only, and downloads the same bytes', async ({
  page,
}) => {
  const bucket = await ownFolderBucket();
  await openClient(page);
  const me = await signUpInPage(page);
  // supabase-js sends a File as multipart form data (cacheControl plus the file under an empty name).
  const uploads: Array<string | undefined> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().includes(`/storage/v1/object/${bucket}/`)) {
      uploads.push(req.headers()['content-type']);
    }
  });
  const result = await page.evaluate(
    async ({ bucket, me }) => {
      const sb = (window as unknown as PageWindow).sb;
      const bytes = new Uint8Array(256).map((_, i) => (i * 7 + 3) % 256);
      const file = new File([bytes], 'data.bin', { type: 'application/octet-stream' });
      const own = await sb.storage.from(bucket).upload(`${me}/data.bin`, file);
      const foreign = await sb.storage
        .from(bucket)
        .upload(`someone-else/data.bin`, new Blob(['x'], { type: 'text/plain' }));
      const down = await sb.storage.from(bucket).download(`${me}/data.bin`);
      return {
        own: { data: own.data, error: own.error && String(own.error.message) },
        foreign: foreign.error && {
          name: foreign.error.name,
          message: foreign.error.message,
          status: foreign.error.status,
          statusCode: foreign.error.statusCode,
        },
        sent: Array.from(bytes),
        got: down.data ? Array.from(new Uint8Array(await down.data.arrayBuffer())) : null,
        type: down.data?.type ?? null,
      };
    },
    { bucket, me },
  );
  expect(result.own.error).toBeNull();
  expect(result.own.data).toMatchObject({
    path: `${me}/data.bin`,
    fullPath: `${bucket}/${me}/data.bin`,
  });
  expect(typeof result.own.data?.id).toBe('string');
  // The upstream shape of an RLS refusal: HTTP 400 with statusCode "403" in the body.
  expect(result.foreign).toEqual({
    name: 'StorageApiError',
    message: 'new row violates row-level security policy',
    status: 400,
    statusCode: '403',
  });
  expect(uploads).toHaveLength(2);
  for (const type of uploads) expect(type).toMatch(/^multipart\/form-data; boundary=/);
  expect(result.got).toEqual(result.sent);
  expect(result.type).toBe('application/octet-stream');
});

test('a public bucket serves its objects to the browser without a token (<img> and fetch)', async ({
  page,
}) => {
  const bucket = unique('pub').replaceAll('_', '-');
  await sql(
    `insert into storage.buckets (id, name, public) values ('${bucket}', '${bucket}', true)`,
  );
  // Uploaded from Node with the secret key, as a server or the dashboard would.
  const put = await fetch(`${E2E_SUPABASE_URL}/storage/v1/object/${bucket}/dot.png`, {
    method: 'POST',
    headers: { apikey: SECRET_KEY, 'Content-Type': 'image/png' },
    body: PNG_1X1,
  });
  expect(put.status).toBe(200);
  await openClient(page);
  const seen = await page.evaluate(async (bucket) => {
    const sb = (window as unknown as PageWindow).sb;
    const url: string = sb.storage.from(bucket).getPublicUrl('dot.png').data.publicUrl;
    const img = new Image();
    const loaded = await new Promise<string>((resolve) => {
      img.onload = () => resolve(`${img.naturalWidth}x${img.naturalHeight}`);
      img.onerror = () => resolve('error');
      img.src = url;
    });
    // A plain cross-origin fetch: no apikey, no Authorization.
    const res = await fetch(url);
    return {
      url,
      loaded,
      status: res.status,
      type: res.headers.get('content-type'),
      bytes: Array.from(new Uint8Array(await res.arrayBuffer())),
    };
  }, bucket);
  expect(seen.url).toBe(`${E2E_SUPABASE_URL}/storage/v1/object/public/${bucket}/dot.png`);
  expect(seen.loaded).toBe('1x1');
  expect(seen.status).toBe(200);
  expect(seen.type).toBe('image/png');
  expect(seen.bytes).toEqual(Array.from(PNG_1X1));
});

test('a signed URL made in the browser downloads a private object without a token', async ({
  page,
}) => {
  const bucket = await ownFolderBucket();
  await openClient(page);
  const me = await signUpInPage(page);
  const seen = await page.evaluate(
    async ({ bucket, me }) => {
      const sb = (window as unknown as PageWindow).sb;
      const up = await sb.storage
        .from(bucket)
        .upload(`${me}/note.txt`, new Blob(['signed hello'], { type: 'text/plain' }));
      if (up.error) return { error: `upload: ${up.error.message}` };
      const signed = await sb.storage.from(bucket).createSignedUrl(`${me}/note.txt`, 60);
      if (signed.error) return { error: `sign: ${signed.error.message}` };
      const url: string = signed.data.signedUrl;
      const res = await fetch(url);
      // Without the token the same object is not served.
      const bare = await fetch(url.split('?')[0]!.replace('/object/sign/', '/object/public/'));
      return { url, status: res.status, body: await res.text(), bareStatus: bare.status };
    },
    { bucket, me },
  );
  expect(seen).not.toHaveProperty('error');
  expect(seen.url).toMatch(
    new RegExp(`^${E2E_SUPABASE_URL}/storage/v1/object/sign/${bucket}/${me}/note\\.txt\\?token=`),
  );
  expect(seen.status).toBe(200);
  expect(seen.body).toBe('signed hello');
  expect(seen.bareStatus).toBe(400);
});
