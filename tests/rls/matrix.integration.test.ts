// The SPEC §6 policy test: every cell of tests/rls/matrix.ts, through supabase-js with real
// tokens against an isolated emulator running the real migrations. A refusal is checked on the
// wire (status, SQLSTATE, message) and, for writes, by re-reading as service role.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCampaignProbes } from './campaign-probes';
import { expectRefused, runTableCell } from './cases';
import { makeImportProbes } from './import-probes';
import {
  CAMPAIGN_TABLES,
  FEEDBACK_RPCS,
  IMPORT_TABLES,
  MEDIA,
  RATE_LIMIT_RPC,
  REALTIME,
  TABLES,
  cells,
  type CampaignTarget,
  type ImportTarget,
  type Outcome,
  type StorageOp,
  type Table,
} from './matrix';
import { makeProbes, type Probe } from './probes';
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

async function mediaFolder(folder: string): Promise<string[]> {
  const { data, error } = await team.service.storage.from('media').list(folder);
  if (error) throw new Error(`service list ${folder}: ${error.message}`);
  return data.map((o) => o.name);
}

/** Size in bytes of a stored file, as the service role lists it. */
async function mediaSize(path: string): Promise<number> {
  const [folder, name] = path.split('/');
  const { data, error } = await team.service.storage.from('media').list(folder);
  if (error) throw new Error(`service list ${folder}: ${error.message}`);
  const file = data.find((o) => o.name === name);
  return (file?.metadata as { size?: number } | undefined)?.size ?? -1;
}

async function seedMedia(): Promise<{ folder: string; path: string }> {
  const folder = `rls-${randomUUID().slice(0, 8)}`;
  const path = `${folder}/logo.png`;
  const { error } = await team.service.storage
    .from('media')
    .upload(path, PNG, { contentType: 'image/png' });
  if (error) throw new Error(`seed media: ${error.message}`);
  return { folder, path };
}

async function mediaCase(actor: Actor, op: StorageOp, outcome: Outcome): Promise<void> {
  const media = team.client(actor).storage.from('media');
  if (op === 'upload') {
    const folder = `rls-${randomUUID().slice(0, 8)}`;
    const path = `${folder}/logo.png`;
    const answer = await media.upload(path, PNG, { contentType: 'image/png' });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(answer.data?.path).toBe(path);
      expect(await mediaFolder(folder)).toEqual(['logo.png']);
    } else {
      expect(outcome).toBe('rls');
      // Storage answers HTTP 400 and puts the real status in the body.
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(answer.error?.message).toMatch(/row-level security/);
      expect(await mediaFolder(folder)).toEqual([]);
    }
    return;
  }
  const { folder, path } = await seedMedia();
  if (op === 'replace') {
    const bigger = Buffer.concat([PNG, Buffer.alloc(64)]);
    const answer = await media.upload(path, bigger, { contentType: 'image/png', upsert: true });
    if (outcome === 'ok') {
      expect(answer.error).toBeNull();
      expect(await mediaSize(path)).toBe(bigger.length);
    } else {
      expect(outcome).toBe('rls');
      expect(answer.error).toMatchObject({ status: 400, statusCode: '403' });
      expect(await mediaSize(path)).toBe(PNG.length);
    }
    return;
  }
  if (op === 'public url') {
    expect(outcome).toBe('ok');
    const response = await fetch(media.getPublicUrl(path).data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
    return;
  }
  if (op === 'list') {
    const answer = await media.list(folder);
    expect(answer.error).toBeNull();
    expect(answer.data?.map((o) => o.name)).toEqual(outcome === 'ok' ? ['logo.png'] : []);
    if (outcome !== 'ok') expect(outcome).toBe('hidden');
    return;
  }
  const answer = await media.remove([path]);
  expect(answer.error).toBeNull();
  if (outcome === 'ok') {
    expect(answer.data?.map((o) => o.name)).toEqual([path]);
    expect(await mediaFolder(folder)).toEqual([]);
  } else {
    // Rows the caller may not delete are skipped silently: an empty answer, the file stays.
    expect(outcome).toBe('noop');
    expect(answer.data).toEqual([]);
    expect(await mediaFolder(folder)).toEqual(['logo.png']);
  }
}

describe('storage bucket media', () => {
  it.each(cells(MEDIA))('$actor $op → $outcome', async ({ actor, op, outcome }) => {
    await mediaCase(actor, op, outcome);
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

describe('realtime INSERT events', () => {
  type Change = { new: Record<string, unknown>; errors: string[] | null };
  const heard = new Map<string, Change[]>();
  const tables = Object.keys(REALTIME) as (keyof typeof REALTIME)[];
  let subscriberId: string;

  beforeAll(async () => {
    // Everyone listens to both tables at once, then one signup arrives.
    await Promise.all(
      cells(REALTIME).map(
        ({ actor, op: table }) =>
          new Promise<void>((resolve, reject) => {
            const inbox: Change[] = [];
            heard.set(`${actor} ${table}`, inbox);
            team
              .client(actor)
              .channel(`rls-${actor}-${table}`)
              .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, (p) =>
                inbox.push(p as unknown as Change),
              )
              .subscribe((status, err) => {
                if (status === 'SUBSCRIBED') resolve();
                else if (status !== 'CLOSED')
                  reject(new Error(`${actor} ${table}: ${status} ${err}`));
              });
          }),
      ),
    );
    const { data, error } = await team.service
      .from('subscribers')
      .insert({ email: `rt-${randomUUID().slice(0, 8)}@example.com` })
      .select('id')
      .single();
    if (error) throw new Error(error.message);
    subscriberId = data.id;
    const list = await team.service.from('lists').select('id').eq('slug', 'rls-matrix').single();
    await team.service
      .from('subscriptions')
      .insert({ subscriber_id: subscriberId, list_id: list.data!.id });
    // Wait for every listener that should hear something, then a little longer for the rest.
    const expected = cells(REALTIME).filter((c) => c.outcome !== 'hidden');
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

  it.each(cells(REALTIME))('$actor hears $op → $outcome', ({ actor, op: table, outcome }) => {
    expect(tables).toContain(table);
    const inbox = heard.get(`${actor} ${table}`)!;
    if (outcome === 'hidden') return expect(inbox).toEqual([]);
    expect(inbox).toHaveLength(1);
    if (outcome === 'ok') {
      expect(inbox[0]!.errors).toBeNull();
      expect(inbox[0]!.new).toMatchObject(
        table === 'subscribers' ? { id: subscriberId } : { subscriber_id: subscriberId },
      );
    } else {
      expect(outcome).toBe('no-grant');
      expect(inbox[0]!.errors).toEqual(['Error 401: Unauthorized']);
      expect(inbox[0]!.new).toEqual({});
    }
  });
});
