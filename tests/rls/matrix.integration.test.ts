// The SPEC §6 policy test: every cell of tests/rls/matrix.ts, through supabase-js with real
// tokens against an isolated emulator running the real migrations. A refusal is checked on the
// wire (status, SQLSTATE, message) and, for writes, by re-reading as service role.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCampaignProbes } from './campaign-probes';
import { expectRefused, runTableCell } from './cases';
import { makeImportProbes } from './import-probes';
import {
  BUCKETS,
  CAMPAIGN_TABLES,
  FEEDBACK_RPCS,
  IMPORT_TABLES,
  RATE_LIMIT_RPC,
  REALTIME,
  TABLES,
  cells,
  type Bucket,
  type CampaignTarget,
  type ImportTarget,
  type Outcome,
  type RealtimeTopic,
  type StorageOp,
  type Table,
} from './matrix';
import { makeProbes, one, type Probe } from './probes';
import { createTeam, startIsolatedEmulator, untyped, type Actor, type Team } from './team-kit';

// A 1×1 PNG: the media bucket accepts images only.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let team: Team;
let probes: Record<Table | CampaignTarget | ImportTarget, Probe>;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
  const { data, error } = await team.service
    .from('lists')
    .insert({ slug: 'rls-matrix', name: 'RLS matrix', visibility: 'private' })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  probes = {
    ...makeProbes(team.service, data.id),
    ...makeCampaignProbes(team.service, data.id),
    ...makeImportProbes(team.service, team.users.viewer.id),
  };
}, 120_000);
afterAll(() => team?.emu.stop());

const ROWS = { ...TABLES, ...CAMPAIGN_TABLES, ...IMPORT_TABLES };

describe.each(Object.keys(ROWS) as (keyof typeof ROWS)[])('%s', (target) => {
  it.each(cells(ROWS[target]))('$actor $op → $outcome', async ({ actor, op, outcome }) => {
    await runTableCell(team, probes[target], actor, op, outcome);
  });
});

/** What each bucket accepts: the media bucket images, the import and export buckets CSV. */
const FILES: Record<Bucket, { name: string; bytes: Buffer; contentType: string }> = {
  media: { name: 'logo.png', bytes: PNG, contentType: 'image/png' },
  imports: {
    name: 'contacts.csv',
    bytes: Buffer.from('email\na@example.com\n'),
    contentType: 'text/csv',
  },
  exports: {
    name: 'subscribers.csv',
    bytes: Buffer.from('email\nb@example.com\n'),
    contentType: 'text/csv',
  },
};

async function storedNames(bucket: Bucket, folder: string): Promise<string[]> {
  const { data, error } = await team.service.storage.from(bucket).list(folder);
  if (error) throw new Error(`service list ${bucket}/${folder}: ${error.message}`);
  return data.map((o) => o.name);
}

/** Size in bytes of a stored file, as the service role lists it. */
async function storedSize(bucket: Bucket, path: string): Promise<number> {
  const [folder, name] = path.split('/');
  const { data, error } = await team.service.storage.from(bucket).list(folder);
  if (error) throw new Error(`service list ${bucket}/${folder}: ${error.message}`);
  const file = data.find((o) => o.name === name);
  return (file?.metadata as { size?: number } | undefined)?.size ?? -1;
}

async function seedFile(bucket: Bucket): Promise<{ folder: string; path: string }> {
  const { name, bytes, contentType } = FILES[bucket];
  const folder = `rls-${randomUUID().slice(0, 8)}`;
  const path = `${folder}/${name}`;
  const { error } = await team.service.storage.from(bucket).upload(path, bytes, { contentType });
  if (error) throw new Error(`seed ${bucket}: ${error.message}`);
  return { folder, path };
}

async function storageCase(
  bucket: Bucket,
  actor: Actor,
  op: StorageOp,
  outcome: Outcome,
): Promise<void> {
  const store = team.client(actor).storage.from(bucket);
  const { name, bytes, contentType } = FILES[bucket];
  if (op === 'upload') {
    const folder = `rls-${randomUUID().slice(0, 8)}`;
    const path = `${folder}/${name}`;
    const answer = await store.upload(path, bytes, { contentType });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(answer.data?.path).toBe(path);
      expect(await storedNames(bucket, folder)).toEqual([name]);
    } else {
      expect(outcome).toBe('rls');
      // Storage answers HTTP 400 and puts the real status in the body.
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(answer.error?.message).toMatch(/row-level security/);
      expect(await storedNames(bucket, folder)).toEqual([]);
    }
    return;
  }
  const { folder, path } = await seedFile(bucket);
  if (op === 'replace') {
    const bigger = Buffer.concat([bytes, Buffer.from('\n'.repeat(64))]);
    const answer = await store.upload(path, bigger, { contentType, upsert: true });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(await storedSize(bucket, path)).toBe(bigger.length);
    } else {
      expect(outcome).toBe('rls');
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(await storedSize(bucket, path)).toBe(bytes.length);
    }
    return;
  }
  if (op === 'public url') {
    expect(outcome).toBe('ok');
    const response = await fetch(store.getPublicUrl(path).data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    return;
  }
  if (op === 'list') {
    const answer = await store.list(folder);
    expect(answer.error).toBeNull();
    expect(answer.data?.map((o) => o.name)).toEqual(outcome === 'ok' ? [name] : []);
    if (outcome !== 'ok') expect(outcome).toBe('hidden');
    return;
  }
  if (op === 'download') {
    const answer = await store.download(path);
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(Buffer.from(await answer.data!.arrayBuffer())).toEqual(bytes);
    } else {
      // Answered as for a file that does not exist: the caller cannot tell it is there.
      expect(outcome).toBe('hidden');
      expect(answer.data).toBeNull();
      expect(answer.error).toMatchObject({ status: 400, statusCode: '404' });
    }
    return;
  }
  const answer = await store.remove([path]);
  expect(answer.error).toBeNull();
  if (outcome === 'ok') {
    expect(answer.data?.map((o) => o.name)).toEqual([path]);
    expect(await storedNames(bucket, folder)).toEqual([]);
  } else {
    // Rows the caller may not delete are skipped silently: an empty answer, the file stays.
    expect(outcome).toBe('noop');
    expect(answer.data).toEqual([]);
    expect(await storedNames(bucket, folder)).toEqual([name]);
  }
}

describe.each(Object.keys(BUCKETS) as Bucket[])('storage bucket %s', (bucket) => {
  it.each(cells(BUCKETS[bucket]))('$actor $op → $outcome', async ({ actor, op, outcome }) => {
    await storageCase(bucket, actor, op, outcome);
  });
});

describe('rpc hit_rate_limit', () => {
  it.each(cells({ execute: RATE_LIMIT_RPC }))(
    '$actor $op → $outcome',
    async ({ actor, outcome }) => {
      const key = randomUUID();
      const call = (who: Actor, limit: number) =>
        untyped(team.client(who)).rpc('hit_rate_limit', {
          p_bucket: 'rls-matrix',
          p_key: key,
          p_limit: limit,
          p_window_seconds: 3600,
        });
      const answer = await call(actor, 5);
      if (outcome === 'ok') {
        expect(answer.error).toBeNull();
        expect(answer.data).toBe(0);
        // The hit counted: with a limit of 1 the next one must wait.
        expect((await call('service', 1)).data).toBeGreaterThan(0);
      } else {
        expectRefused(answer, actor, outcome, 'hit_rate_limit', 'function');
        // Nothing was counted: the first real hit with a limit of 1 still passes.
        expect((await call('service', 1)).data).toBe(0);
      }
    },
  );
});

describe.each(Object.keys(FEEDBACK_RPCS) as (keyof typeof FEEDBACK_RPCS)[])('rpc %s', (fn) => {
  it.each(cells({ execute: FEEDBACK_RPCS[fn] }))(
    '$actor $op → $outcome',
    async ({ actor, outcome }) => {
      // A confirmed subscriber on the matrix's list, and a draft campaign, made by the service role.
      const email = `rls-feedback-${randomUUID()}@example.com`;
      const who = await team.service.from('subscribers').insert({ email }).select('id').single();
      if (who.error) throw new Error(who.error.message);
      const list = await team.service.from('lists').select('id').eq('slug', 'rls-matrix').single();
      await team.service
        .from('subscriptions')
        .insert({ subscriber_id: who.data.id, list_id: list.data!.id, status: 'confirmed' });
      const campaign = await team.service
        .from('campaigns')
        .insert({ name: 'RLS', subject: 'RLS' })
        .select('id')
        .single();
      if (campaign.error) throw new Error(campaign.error.message);
      const args = {
        record_email_events: { p_events: [{ type: 'complaint', email }] },
        record_tracking_event: {
          p_type: 'clicked',
          p_subscriber: who.data.id,
          p_campaign: campaign.data.id,
          p_data: { url: 'https://example.com/' },
        },
        unsubscribe_with_campaign: {
          p_subscriber: who.data.id,
          p_lists: null,
          p_source: 'rls-matrix',
          p_campaign: campaign.data.id,
        },
      }[fn];
      const answer = await untyped(team.client(actor)).rpc(fn, args);
      const status = await team.service
        .from('subscriptions')
        .select('status')
        .eq('subscriber_id', who.data.id)
        .single();
      if (outcome === 'ok') {
        expect(answer.error).toBeNull();
        // The writers that change subscriptions did; record_tracking_event answers false (tracking off).
        expect(status.data!.status).toBe(
          fn === 'record_tracking_event' ? 'confirmed' : 'unsubscribed',
        );
      } else {
        expectRefused(answer, actor, outcome, fn, 'function');
        expect(status.data!.status).toBe('confirmed');
      }
    },
  );
});

describe('realtime: private team topics', () => {
  type Message = { event: string; payload: Record<string, unknown> };
  const heard = new Map<string, Message[]>();
  const joined = new Map<string, string>();
  const topics = Object.keys(REALTIME) as RealtimeTopic[];

  beforeAll(async () => {
    // Everyone joins every topic at once (a refused join is removed: supabase-js would retry it).
    await Promise.all(
      cells(REALTIME).map(({ actor, op: topic }) => {
        const inbox: Message[] = [];
        heard.set(`${actor} ${topic}`, inbox);
        const client = team.client(actor);
        const channel = client
          .channel(topic, { config: { private: true } })
          .on('broadcast', { event: '*' }, (m) => inbox.push(m as unknown as Message));
        return new Promise<string>((resolve) =>
          channel.subscribe((status, err) =>
            resolve(status === 'SUBSCRIBED' ? status : `${status}: ${err?.message ?? ''}`),
          ),
        ).then(async (outcome) => {
          joined.set(`${actor} ${topic}`, outcome);
          if (outcome !== 'SUBSCRIBED') await client.removeChannel(channel);
        });
      }),
    );
    const service = untyped(team.service);
    const list = await one(
      service.from('lists').select('id').eq('slug', 'rls-matrix').single(),
      'matrix list',
    );
    // A signup, a new draft, a queued import and a new automation, as service role.
    await one(
      service
        .from('subscribers')
        .insert({ email: `rt-${randomUUID().slice(0, 8)}@example.com` })
        .select('id')
        .single(),
      'realtime subscriber',
    );
    await one(
      service.from('campaigns').insert({ name: 'Realtime', subject: 'Hi' }).select('id').single(),
      'realtime campaign',
    );
    await one(
      service
        .from('imports')
        .insert({ object_path: `rls/${randomUUID()}.csv`, list_ids: [list.id] })
        .select('id')
        .single(),
      'realtime import',
    );
    await one(
      service
        .from('automations')
        .insert({ name: 'Realtime', trigger_list_id: list.id })
        .select('id')
        .single(),
      'realtime automation',
    );
    // Wait for every listener that should hear something, then a little longer for the rest.
    const expected = cells(REALTIME).filter((c) => c.outcome === 'ok');
    const deadline = Date.now() + 10_000;
    while (
      expected.some((c) => !heard.get(`${c.actor} ${c.op}`)!.length) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
  }, 30_000);
  afterAll(async () => {
    for (const actor of new Set(cells(REALTIME).map((c) => c.actor))) {
      await team?.client(actor).removeAllChannels();
    }
  });

  it('leaves no table in the supabase_realtime publication', async () => {
    // Hosted Realtime sends a role an "Error 401" event for each change of a table it cannot
    // read; for subscribers that would tell a new address from a known one (SPEC §7).
    const { rows } = await team.emu.db.query<{ name: string }>(
      `select schemaname || '.' || tablename as name from pg_catalog.pg_publication_tables
        where pubname = 'supabase_realtime' order by 1`,
    );
    expect(rows.map((r) => r.name)).toEqual([]);
  });

  it.each(cells(REALTIME))('$actor joins $op → $outcome', ({ actor, op: topic, outcome }) => {
    expect(topics).toContain(topic);
    const inbox = heard.get(`${actor} ${topic}`)!;
    if (outcome === 'rls') {
      expect(joined.get(`${actor} ${topic}`)).toMatch(
        /^CHANNEL_ERROR: Unauthorized: You do not have permissions to read from this Channel topic/,
      );
      return expect(inbox).toEqual([]);
    }
    expect(outcome).toBe('ok');
    expect(joined.get(`${actor} ${topic}`)).toBe('SUBSCRIBED');
    expect(inbox.map((m) => m.event)).toContain(topic === 'team:audience' ? 'signups' : 'changed');
  });
});
