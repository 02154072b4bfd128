// Issue 3's storage benchmark: uploads and downloads of 1 MB and 20 MB files through supabase-js
// storage against writing (with fsync) and reading the same bytes on local disk, and rendering a
// 2000 px JPEG to 640 px through /storage/v1/render/image against sharp in-process.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { signJwt } from '../emulator/keys.js';
import { startTestProject } from '../emulator/test-project.js';
import { measureSides, type Operation } from './measure.js';
import { summarize } from './stats.js';
import type { Benchmark, BenchOptions, BenchResult, Comparison, Measurement } from './types.js';

/** Decimal megabytes, as storage's own size limits count them ("5MB" = 5,000,000 bytes). */
const SIZES_MB = [1, 20];
const RENDER_WIDTH = 640;
/** What Chrome sends for an <img>: the render answers webp to it (no avif_autodetection). */
const BROWSER_ACCEPT = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';

/** Private bucket of per-user folders, as an app stores user files; a public one for images. */
export const FIXTURE_SQL = `
insert into storage.buckets (id, name, public) values ('files', 'files', false), ('images', 'images', true);
create policy "users read their folder" on storage.objects for select to authenticated
  using (bucket_id = 'files' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "users add to their folder" on storage.objects for insert to authenticated
  with check (bucket_id = 'files' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "users replace in their folder" on storage.objects for update to authenticated
  using (bucket_id = 'files' and (storage.foldername(name))[1] = (select auth.uid())::text);
`;

/** A 2000×1333 photo-like JPEG: smooth gradients plus seeded noise, so it compresses like one. */
export async function makePhoto(): Promise<Buffer> {
  const [width, height] = [2000, 1333];
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed % 24) - 12;
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, (x * 255) / width + noise));
      raw[i + 1] = Math.max(0, Math.min(255, (y * 255) / height + noise));
      raw[i + 2] = Math.max(0, Math.min(255, 128 + 100 * Math.sin((x + y) / 90) + noise));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function check(ok: boolean, what: string) {
  if (!ok) throw new Error(what);
}

interface Case {
  name: string;
  sides: Record<string, Operation>;
  /** [numerator, denominator] side names. */
  ratio: [string, string];
}

export interface StorageOptions extends BenchOptions {
  /** File sizes in MB; the benchmark's are 1 and 20. */
  sizesMb?: number[];
}

export async function runStorageTransfer(options: StorageOptions): Promise<BenchResult> {
  const sizes = options.sizesMb ?? SIZES_MB;
  const project = await startTestProject('bench-storage', {
    'migrations/20260101000000_storage_bench.sql': FIXTURE_SQL,
  });
  const { emu } = project;
  const backend = emu.db.kind;
  const diskDir = await mkdtemp(join(tmpdir(), 'postbox-bench-disk-'));
  let supabase: SupabaseClient | null = null;
  try {
    const user = randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    const token = await signJwt({
      sub: user,
      role: 'authenticated',
      aud: 'authenticated',
      iat,
      exp: iat + 3600,
    });
    // A signed-in user's client: storage runs the bucket's RLS policies for every request.
    supabase = createClient(emu.url, emu.keys.anon, {
      accessToken: async () => token,
    });
    const files = supabase.storage.from('files');

    const cases: Case[] = [];
    for (const mb of sizes) {
      const bytes = randomBytes(Math.round(mb * 1_000_000)); // Incompressible, like media.
      // A browser's File is a Blob: supabase-js sends it as multipart/form-data.
      const blob = new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' });
      const key = `${user}/file-${mb}MB.bin`;
      const diskPath = join(diskDir, `file-${mb}MB.bin`);
      const upload: Operation = async () => {
        const { error } = await files.upload(key, blob, { upsert: true });
        if (error) throw new Error(`upload: ${error.message}`);
      };
      const write: Operation = async () => {
        const fh = await open(diskPath, 'w');
        try {
          await fh.writeFile(bytes);
          await fh.sync();
        } finally {
          await fh.close();
        }
      };
      // Downloads need the object and the file in place before their first sample.
      await upload(0);
      await write(0);
      cases.push(
        {
          name: `upload ${mb} MB`,
          sides: { storage: upload, disk: write },
          ratio: ['storage', 'disk'],
        },
        {
          name: `download ${mb} MB`,
          sides: {
            async storage() {
              const { data, error } = await files.download(key);
              if (error) throw new Error(`download: ${error.message}`);
              check((await data.arrayBuffer()).byteLength === bytes.length, 'download: wrong size');
            },
            async disk() {
              check((await readFile(diskPath)).length === bytes.length, 'read: wrong size');
            },
          },
          ratio: ['storage', 'disk'],
        },
      );
    }

    const photo = await makePhoto();
    const meta = await sharp(photo).metadata();
    {
      // The public bucket has no write policy: the service key puts the image there, as an admin would.
      const admin = createClient(emu.url, emu.keys.secret);
      const { error } = await admin.storage
        .from('images')
        .upload('photo.jpg', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }));
      if (error) throw new Error(`image upload: ${error.message}`);
    }
    for (const format of ['webp', 'jpeg'] as const) {
      const url = supabase.storage.from('images').getPublicUrl('photo.jpg', {
        transform: { width: RENDER_WIDTH, ...(format === 'jpeg' ? { format: 'origin' } : {}) },
      }).data.publicUrl;
      cases.push({
        name: `render ${meta.width} px JPEG → ${RENDER_WIDTH} px ${format}`,
        sides: {
          async storage() {
            const res = await fetch(url, { headers: { Accept: BROWSER_ACCEPT } });
            const body = Buffer.from(await res.arrayBuffer());
            check(
              res.status === 200,
              `render answered ${res.status}: ${body.toString().slice(0, 200)}`,
            );
            check(
              res.headers.get('content-type') === `image/${format}`,
              `render sent ${res.headers.get('content-type')}`,
            );
            check((await sharp(body).metadata()).width === RENDER_WIDTH, 'render: wrong width');
          },
          // The same resize and encoding in this process: what the render costs beyond sharp.
          async sharp() {
            const resized = sharp(photo)
              .rotate()
              .resize({ width: RENDER_WIDTH, withoutEnlargement: true });
            const out =
              format === 'webp'
                ? await resized.webp({ quality: 80 }).toBuffer()
                : await resized.jpeg({ quality: 80 }).toBuffer();
            check(out.length > 0, 'sharp: empty output');
          },
        },
        ratio: ['storage', 'sharp'],
      });
    }

    const measurements: Measurement[] = [];
    const comparisons: Comparison[] = [];
    for (const c of cases) {
      options.log(`${c.name}: ${options.warmup} warm-up + ${options.samples} samples per side`);
      const outcome = await measureSides(c.sides, options);
      const stats: Record<string, ReturnType<typeof summarize> | null> = {};
      for (const [side, o] of Object.entries(outcome)) {
        stats[side] = o.samples ? summarize(o.samples) : null;
        measurements.push({ case: c.name, side, stats: stats[side]!, error: o.error });
      }
      const [num, den] = [stats[c.ratio[0]], stats[c.ratio[1]]];
      comparisons.push({
        case: c.name,
        numerator: c.ratio[0],
        denominator: c.ratio[1],
        p50Ratio: num && den ? num.p50 / den.p50 : null,
        p99Ratio: num && den ? num.p99 / den.p99 : null,
        p50DeltaMs: num && den ? num.p50 - den.p50 : null,
      });
    }
    return {
      backend,
      measurements,
      comparisons,
      goals: [],
      notes: [
        'storage: supabase-js 2.119 as a signed-in user (RLS policies on storage.objects run) → HTTP on ' +
          'loopback → gateway → storage service → database row + file in the emulator’s temp dir.',
        'upload: the bytes as a Blob (what a browser File is), so supabase-js sends multipart/form-data; ' +
          'upsert onto the same key each time. download: the whole body read into memory.',
        'disk: the same bytes written to a file in the same temp folder with open/write/fsync/close, and ' +
          'read back with readFile (page cache warm). The emulator itself does not fsync its files.',
        `render: GET /storage/v1/render/image/public/images/photo.jpg?width=${RENDER_WIDTH} (fetch, Accept as ` +
          `Chrome’s for an <img>, so webp; format=origin for jpeg) of a ${meta.width}×${meta.height} ` +
          `JPEG of ${photo.length} bytes; sharp: the same resize and encoding (quality 80) in this process.`,
        'Sides are interleaved sample by sample; other processes on the machine add noise (see loadAverage1m).',
      ],
    };
  } finally {
    await supabase?.removeAllChannels();
    await rm(diskDir, { recursive: true, force: true });
    await project.stop();
  }
}

export const storageTransfer: Benchmark = {
  name: 'storage-transfer',
  description:
    'Storage upload/download of 1 MB and 20 MB vs. local disk (write+fsync, read); image render 2000 → 640 px vs. sharp',
  defaults: { samples: 30, warmup: 3 },
  run: (options) => runStorageTransfer(options),
};
