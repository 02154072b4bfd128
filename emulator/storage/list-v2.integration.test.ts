// Storage list-v2 through supabase-js as upstream's search_v2 answers it: keys, sort orders, cursors; info() metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { client, startTestEmulator } from './testing.js';

let emu: RunningEmulator;
let storage: ReturnType<typeof client>['storage'];
const names = (entries: Array<{ name: string }>) => entries.map((e) => e.name);
// supabase-js types folders without dates; upstream sends them when sorting by a date.
type Dated = { name: string; created_at: string; updated_at: string };

beforeAll(async () => {
  emu = await startTestEmulator();
  storage = client(emu, emu.keys.secret).storage;
  await storage.createBucket('files', { public: false });
  // Upload order fixes created_at: b.txt, then f/1.txt, a.txt, f.txt, g/x.txt, then c.txt.
  for (const name of ['top/b.txt', 'top/f/1.txt', 'top/a.txt', 'top/f.txt', 'top/g/x.txt']) {
    await storage.from('files').upload(name, name);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  await storage.from('files').upload('top/f/2.txt', 'late');
  await new Promise((resolve) => setTimeout(resolve, 15));
  await storage.from('files').upload('top/c.txt', 'last');
});
afterAll(() => emu?.stop());

describe('storage list-v2', () => {
  it('gives folders and objects a key, the name relative to the prefix', async () => {
    const { data, error } = await storage
      .from('files')
      .listV2({ prefix: 'top/', with_delimiter: true });
    expect(error).toBeNull();
    expect(data!.folders).toEqual([
      {
        key: 'f',
        name: 'top/f/',
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      },
      expect.objectContaining({ key: 'g', name: 'top/g/', id: null }),
    ]);
    expect(data!.objects.map((o) => [o.key, o.name])).toEqual([
      ['a.txt', 'top/a.txt'],
      ['b.txt', 'top/b.txt'],
      ['c.txt', 'top/c.txt'],
      ['f.txt', 'top/f.txt'],
    ]);
    const root = await storage.from('files').listV2({ with_delimiter: true });
    expect(root.data!.folders).toEqual([expect.objectContaining({ key: 'top', name: 'top/' })]);
  });

  it('sorts by name descending, folders where their names fall, with a cursor', async () => {
    const all = await storage.from('files').listV2({
      prefix: 'top/',
      with_delimiter: true,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(all.error).toBeNull();
    expect(names(all.data!.folders)).toEqual(['top/g/', 'top/f/']);
    expect(names(all.data!.objects)).toEqual(['top/f.txt', 'top/c.txt', 'top/b.txt', 'top/a.txt']);

    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await storage.from('files').listV2({
        prefix: 'top/',
        with_delimiter: true,
        limit: 2,
        cursor,
        sortBy: { column: 'name', order: 'desc' },
      });
      expect(page.error).toBeNull();
      // Pages interleave folders and objects in one order: 'g/' > 'f/' > 'f.txt'.
      pages.push(...names(page.data!.folders), ...names(page.data!.objects));
      cursor = page.data!.hasNext ? page.data!.nextCursor : undefined;
    } while (cursor);
    expect(pages).toEqual(['top/g/', 'top/f/', 'top/f.txt', 'top/c.txt', 'top/b.txt', 'top/a.txt']);
  });

  it('sorts by created_at and updated_at, folders dated by their oldest object', async () => {
    const asc = await storage.from('files').listV2({
      prefix: 'top/',
      with_delimiter: true,
      sortBy: { column: 'created_at', order: 'asc' },
    });
    expect(asc.error).toBeNull();
    expect(names(asc.data!.objects)).toEqual(['top/b.txt', 'top/a.txt', 'top/f.txt', 'top/c.txt']);
    const [f, g] = asc.data!.folders as unknown as Dated[];
    expect(f).toMatchObject({ key: 'f', name: 'top/f/', id: null });
    expect(g).toMatchObject({ key: 'g', name: 'top/g/' });
    // The folder's dates are its first object's (top/f/1.txt), not the later top/f/2.txt.
    expect(Date.parse(f!.created_at!)).toBeLessThan(Date.parse(asc.data!.objects[1]!.created_at!));
    expect(f!.updated_at).toBe(f!.created_at);

    const order: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await storage.from('files').listV2({
        prefix: 'top/',
        with_delimiter: true,
        limit: 2,
        cursor,
        sortBy: { column: 'updated_at', order: 'desc' },
      });
      expect(page.error).toBeNull();
      const entries = [...page.data!.folders, ...page.data!.objects] as unknown as Dated[];
      entries.sort((x, y) => Date.parse(y.updated_at) - Date.parse(x.updated_at));
      order.push(...names(entries));
      cursor = page.data!.hasNext ? page.data!.nextCursor : undefined;
    } while (cursor);
    expect(order).toEqual(['top/c.txt', 'top/g/', 'top/f.txt', 'top/a.txt', 'top/f/', 'top/b.txt']);
  });

  it('sorts a flat listing by created_at descending across pages, without keys', async () => {
    const first = await storage.from('files').listV2({
      prefix: 'top/f',
      limit: 2,
      sortBy: { column: 'created_at', order: 'desc' },
    });
    expect(first.error).toBeNull();
    expect(names(first.data!.objects)).toEqual(['top/f/2.txt', 'top/f.txt']);
    expect(first.data!.objects[0]).not.toHaveProperty('key');
    expect(first.data!.hasNext).toBe(true);
    const next = await storage
      .from('files')
      .listV2({ prefix: 'top/f', limit: 2, cursor: first.data!.nextCursor });
    expect(names(next.data!.objects)).toEqual(['top/f/1.txt']);
    expect(next.data!.hasNext).toBe(false);
  });

  it('rejects unknown sort columns and bad cursors as upstream', async () => {
    const res = await fetch(`${emu.url}/storage/v1/object/list-v2/files`, {
      method: 'POST',
      headers: {
        apikey: emu.keys.secret,
        Authorization: `Bearer ${emu.keys.serviceRole}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ sortBy: { column: 'last_accessed_at' } }),
    });
    expect(await res.json()).toMatchObject({
      statusCode: '400',
      message: 'body/sortBy/column must be equal to one of the allowed values',
    });
    const bad = await storage.from('files').listV2({ cursor: 'bm9wZQ' });
    expect(bad.error).toMatchObject({ statusCode: '400' });
  });

  it('answers info() of a plain upload with metadata {}', async () => {
    await storage.from('files').upload('plain.txt', 'no metadata');
    const info = await storage.from('files').info('plain.txt');
    expect(info.error).toBeNull();
    expect(info.data!.metadata).toEqual({});
    await storage.from('files').upload('form.txt', new Blob(['x'], { type: 'text/plain' }));
    expect((await storage.from('files').info('form.txt')).data!.metadata).toEqual({});
  });
});
