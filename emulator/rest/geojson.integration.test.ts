// REST conformance, GeoJSON output (`Accept: application/geo+json`, postgrest-js's `.geojson()`):
// PostgREST's FeatureCollection built by PostGIS's ST_AsGeoJSON over the rows, for reads, RPC and
// writes with return=representation; without PostGIS, the error upstream gives (42883, 404).
// PostGIS exists only on a native server that has it installed (PGlite ships no postgis), so
// those tests run there and are skipped, with the reason printed, anywhere it is not available.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest, startRestFixture, type RestFixture } from './test-fixtures.js';

/** PostgREST's test data (test/spec/Feature/Query/PostGISSpec.hs), made in `extensions` as on hosted. */
const POSTGIS_SQL = `
create extension postgis schema extensions;
create table public.shops (
  id int primary key, address text, shop_geom extensions.geometry(point, 4326)
);
create table public.shop_bles (
  id int primary key, name text, coords extensions.geometry(point, 4326),
  range_area extensions.geometry(polygon, 4326), shop_id int references public.shops(id)
);
insert into public.shops values
  (1, '1369 Cambridge St', 'SRID=4326;POINT(-71.10044 42.373695)'),
  (2, '757 Massachusetts Ave', 'SRID=4326;POINT(-71.10543 42.366432)'),
  (3, '605 W Kendall St', 'SRID=4326;POINT(-71.081924 42.36437)');
insert into public.shop_bles values
  (1, 'Beacon-1', 'SRID=4326;POINT(-71.10044 42.373695)',
   'SRID=4326;POLYGON((-71.1 42.37, -71.2 42.37, -71.2 42.38, -71.1 42.37))', 1);
grant all on public.shops, public.shop_bles to anon, authenticated, service_role;
create function public.get_shop(id int) returns setof public.shops language sql stable
  as 'select * from public.shops where shops.id = get_shop.id';
create function public.one_shop(id int) returns public.shops language sql stable
  as 'select * from public.shops where shops.id = one_shop.id';
create function public.shop_point(id int) returns extensions.geometry language sql stable
  as 'select shop_geom from public.shops where shops.id = shop_point.id';
create function public.shop_count() returns int language sql stable
  as 'select count(*)::int from public.shops';
grant execute on all functions in schema public to anon, authenticated, service_role;
`;

const GEO = { Accept: 'application/geo+json' };
const GEO_TYPE = 'application/geo+json; charset=utf-8';

const feature = (id: number, address: string, coordinates: number[]) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates },
  properties: { id, address },
});
const CAMBRIDGE = feature(1, '1369 Cambridge St', [-71.10044, 42.373695]);
const MASS_AVE = feature(2, '757 Massachusetts Ave', [-71.10543, 42.366432]);
const KENDALL = feature(3, '605 W Kendall St', [-71.081924, 42.36437]);
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });

/** What PostgREST answers when ST_AsGeoJSON does not exist (Postgres's own error, 404). */
const NO_POSTGIS = {
  code: '42883',
  details: null,
  hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
  message: 'function st_asgeojson(record) does not exist',
};

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
}, 180_000);
afterAll(() => f?.emu.stop());

const backend = () => (process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite');

/** Why PostGIS cannot be created in the emulator's database, or null when it can. */
async function postgisUnavailable(): Promise<string | null> {
  const { rows } = await f.emu.db.query<{ default_version: string }>(
    `select default_version from pg_available_extensions where name = 'postgis'`,
  );
  if (rows.length) return null;
  return process.env.DATABASE_URL
    ? 'the PostgreSQL server at DATABASE_URL has no postgis extension (Debian: postgresql-15-postgis-3)'
    : 'PGlite ships no postgis extension';
}

// Runs first, before any PostGIS is created: on PGlite always, on PostgreSQL in a fresh database.
describe('GeoJSON without PostGIS', () => {
  let reason: string | null = null;
  beforeAll(async () => {
    const { rows } = await f.emu.db.query(`select 1 from pg_extension where extname = 'postgis'`);
    if (rows.length) reason = 'postgis is already created in this database';
  });

  it('answers 404 42883 as PostgREST does when ST_AsGeoJSON does not exist', async (ctx) => {
    if (reason) ctx.skip(reason);
    const res = await f.rest('/countries', { headers: GEO });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual(NO_POSTGIS);
    // Never the emulator's 501: supabase-js would take a 5xx for something to retry.
    const { data, error, status } = await f.anon.from('countries').select().geojson();
    expect([data, status, error?.code, error?.message]).toEqual([
      null,
      404,
      '42883',
      NO_POSTGIS.message,
    ]);
  });

  it('fails RPC and writes with representation the same way, and the write rolls back', async (ctx) => {
    if (reason) ctx.skip(reason);
    const rpc = await f.rest('/rpc/books_by?author=3', { headers: GEO });
    expect([rpc.status, await rpc.json()]).toEqual([404, NO_POSTGIS]);
    const insert = await f.rest('/items', {
      method: 'POST',
      ...jsonRequest({ name: 'map pin' }, 'return=representation', GEO),
      key: f.emu.keys.serviceRole,
    });
    expect([insert.status, await insert.json()]).toEqual([404, NO_POSTGIS]);
    const { data } = await f.service.from('items').select('name').eq('name', 'map pin');
    expect(data).toEqual([]);
    // Without a representation there is no body to build, so the write succeeds.
    const minimal = await f.rest('/items', {
      method: 'POST',
      ...jsonRequest({ name: 'map pin' }, 'return=minimal', GEO),
      key: f.emu.keys.serviceRole,
    });
    expect(minimal.status).toBe(201);
  });

  it('answers HEAD without building the body (upstream negotiates no aggregate for it)', async (ctx) => {
    if (reason) ctx.skip(reason);
    const res = await f.rest('/countries', { method: 'HEAD', headers: GEO });
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      200,
      GEO_TYPE,
      '',
    ]);
  });
});

describe('GeoJSON with PostGIS', () => {
  let reason: string | null = null;
  beforeAll(async () => {
    reason = await postgisUnavailable();
    if (reason) {
      console.warn(`[geojson] skipping the PostGIS tests on ${backend()}: ${reason}`);
      return;
    }
    await f.emu.db.exec(POSTGIS_SQL);
  }, 120_000);
  const skipWithout = (ctx: { skip: (note?: string) => never }) => {
    if (reason) ctx.skip(`PostGIS unavailable on ${backend()}: ${reason}`);
  };

  it('answers a read as a FeatureCollection with application/geo+json', async (ctx) => {
    skipWithout(ctx);
    const res = await f.rest('/shops?order=id', { headers: GEO });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(GEO_TYPE);
    expect(res.headers.get('content-range')).toBe('0-2/*');
    expect(await res.json()).toEqual(collection(CAMBRIDGE, MASS_AVE, KENDALL));
    const empty = await f.rest('/shops?id=gt.3', { headers: GEO });
    expect([empty.status, await empty.json()]).toEqual([200, collection()]);
  });

  it('takes the selected geometry column and the other selected columns as properties', async (ctx) => {
    skipWithout(ctx);
    const res = await f.rest('/shops?select=id,shop_geom&id=eq.1', { headers: GEO });
    expect(await res.json()).toEqual(collection({ ...CAMBRIDGE, properties: { id: 1 } }));
    const area = await f.rest('/shop_bles?select=id,name,range_area&id=eq.1', { headers: GEO });
    expect(await area.json()).toMatchObject(
      collection({
        type: 'Feature',
        geometry: { type: 'Polygon' },
        properties: { id: 1, name: 'Beacon-1' },
      }),
    );
  });

  it('keeps embedded rows, their geometries as GeoJSON objects, in the properties', async (ctx) => {
    skipWithout(ctx);
    const res = await f.rest('/shops?select=*,shop_bles(id,name,coords)&id=eq.1', {
      headers: GEO,
    });
    expect(await res.json()).toEqual(
      collection({
        ...CAMBRIDGE,
        properties: {
          ...CAMBRIDGE.properties,
          shop_bles: [
            {
              id: 1,
              name: 'Beacon-1',
              coords: {
                type: 'Point',
                crs: { type: 'name', properties: { name: 'EPSG:4326' } },
                coordinates: [-71.10044, 42.373695],
              },
            },
          ],
        },
      }),
    );
  });

  it("refuses rows without a geometry column with PostGIS's 400 22023", async (ctx) => {
    skipWithout(ctx);
    const res = await f.rest('/countries', { headers: GEO });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      code: '22023',
      details: null,
      hint: null,
      message: 'geometry column is missing',
    });
  });

  it('answers RPC as a FeatureCollection, a single row and a scalar geometry included', async (ctx) => {
    skipWithout(ctx);
    const set = await f.rest('/rpc/get_shop?id=1', { headers: GEO });
    expect([set.status, set.headers.get('content-type'), await set.json()]).toEqual([
      200,
      GEO_TYPE,
      collection(CAMBRIDGE),
    ]);
    const one = await f.rest('/rpc/one_shop?id=2', { headers: GEO });
    expect([one.status, one.headers.get('content-type'), await one.json()]).toEqual([
      200,
      GEO_TYPE,
      collection(MASS_AVE),
    ]);
    // A scalar is a row of one column, pgrst_scalar: a geometry is a Feature without properties.
    const point = await f.rest('/rpc/shop_point?id=3', { headers: GEO });
    expect([point.status, await point.json()]).toEqual([
      200,
      collection({ ...KENDALL, properties: {} }),
    ]);
    const count = await f.rest('/rpc/shop_count', { headers: GEO });
    expect([count.status, (await count.json()).code]).toEqual([400, '22023']);
  });

  it('answers writes with return=representation as a FeatureCollection', async (ctx) => {
    skipWithout(ctx);
    const post = await f.rest('/shops', {
      method: 'POST',
      ...jsonRequest(
        {
          id: 4,
          address: '1354 Massachusetts Ave',
          shop_geom: 'SRID=4326;POINT(-71.11834 42.373238)',
        },
        'return=representation',
        GEO,
      ),
    });
    const added = feature(4, '1354 Massachusetts Ave', [-71.11834, 42.373238]);
    expect([post.status, post.headers.get('content-type'), await post.json()]).toEqual([
      201,
      GEO_TYPE,
      collection(added),
    ]);
    const patch = await f.rest('/shops?id=eq.4', {
      method: 'PATCH',
      ...jsonRequest({ address: '1354 Massachusetts Avenue' }, 'return=representation', GEO),
    });
    const renamed = { ...added, properties: { id: 4, address: '1354 Massachusetts Avenue' } };
    expect([patch.status, patch.headers.get('content-type'), await patch.json()]).toEqual([
      200,
      GEO_TYPE,
      collection(renamed),
    ]);
    const put = await f.rest('/shops?id=eq.4', {
      method: 'PUT',
      ...jsonRequest(
        { id: 4, address: 'Mass Ave', shop_geom: 'SRID=4326;POINT(-71.11834 42.373238)' },
        'return=representation',
        GEO,
      ),
    });
    const put4 = { ...added, properties: { id: 4, address: 'Mass Ave' } };
    expect([put.status, await put.json()]).toEqual([200, collection(put4)]);
    const del = await f.rest('/shops?id=eq.4', {
      method: 'DELETE',
      headers: { ...GEO, Prefer: 'return=representation' },
    });
    expect([del.status, del.headers.get('content-type'), await del.json()]).toEqual([
      200,
      GEO_TYPE,
      collection(put4),
    ]);
  });

  it('works through supabase-js .geojson() on reads, RPC and writes', async (ctx) => {
    skipWithout(ctx);
    const read = await f.anon
      .from('shops')
      .select('id,address,shop_geom')
      .lte('id', 2)
      .order('id')
      .geojson();
    expect([read.status, read.error, read.data]).toEqual([
      200,
      null,
      collection(CAMBRIDGE, MASS_AVE),
    ]);
    const rpc = await f.anon.rpc('get_shop', { id: 3 }).geojson();
    expect([rpc.status, rpc.data]).toEqual([200, collection(KENDALL)]);
    const write = await f.anon
      .from('shops')
      .insert({ id: 5, address: 'Harvard Sq', shop_geom: 'SRID=4326;POINT(-71.1189 42.3736)' })
      .select()
      .geojson();
    expect([write.status, write.data]).toEqual([
      201,
      collection(feature(5, 'Harvard Sq', [-71.1189, 42.3736])),
    ]);
    await f.anon.from('shops').delete().eq('id', 5);
  });

  it('is not singular: many rows are one FeatureCollection, and the best Accept range wins', async (ctx) => {
    skipWithout(ctx);
    // No PGRST116 for GeoJSON: upstream checks the row count only for vnd.pgrst.object.
    const many = await f.rest('/shops?order=id', { headers: GEO });
    expect((await many.json()).features).toHaveLength(3);
    const object = await f.rest('/shops?id=eq.1&select=id,address', {
      headers: { Accept: 'application/vnd.pgrst.object+json, application/geo+json' },
    });
    expect([object.headers.get('content-type'), await object.json()]).toEqual([
      'application/vnd.pgrst.object+json; charset=utf-8',
      { id: 1, address: '1369 Cambridge St' },
    ]);
    const geo = await f.rest('/shops?id=eq.1', {
      headers: { Accept: 'application/vnd.pgrst.object+json;q=0.5, application/geo+json' },
    });
    expect([geo.headers.get('content-type'), await geo.json()]).toEqual([
      GEO_TYPE,
      collection(CAMBRIDGE),
    ]);
  });

  it("keeps application/json answering geometries as GeoJSON objects (PostGIS's json cast)", async (ctx) => {
    skipWithout(ctx);
    const { data } = await f.anon.from('shops').select().eq('id', 1);
    expect(data).toEqual([
      {
        id: 1,
        address: '1369 Cambridge St',
        shop_geom: {
          type: 'Point',
          crs: { type: 'name', properties: { name: 'EPSG:4326' } },
          coordinates: [-71.10044, 42.373695],
        },
      },
    ]);
  });
});
