// SPEC §6 for SQL functions: a function created in `public` is executable by PUBLIC (so by anon and
// every signed-in user, through /rest/v1/rpc) until its migration revokes that. The catalogue is
// read for every function in the schema and the callable ones must be exactly the allow-list
// below, so a function added later without its revoke fails here. Then the most dangerous
// service-only functions are called through the API with real tokens, as anon and as the two most
// privileged signed-in roles, and must answer the matrix's `no-grant` and change nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused } from './cases';
import { one } from './probes';
import { createTeam, startIsolatedEmulator, untyped, type Actor, type Team } from './team-kit';

/** The public functions (SPEC §6 "anon: call the public functions"): the archive and the site identity. */
const ANON_CALLABLE = [
  'archive_issue',
  'archive_issues',
  'public_settings',
  'public_subscriber_count',
];
/** The dashboard's, the report's and the subscribers page's functions: for signed-in callers; each runs
 * under the caller's RLS or checks membership itself. */
const SIGNED_IN_CALLABLE = [
  ...ANON_CALLABLE,
  'bulk_update_subscribers',
  'campaign_recipient_count',
  'campaign_report',
  'count_subscribers_matching',
  'duplicate_campaign',
  'export_subscribers_matching_csv',
  'list_subscription_counts',
  'signups_per_day',
  'subscriber_status_counts',
  'subscribers_matching',
  'let_in_from_waitlist',
  'team_sign_ins',
  'waitlist_ranking',
  // Tags and segments (issue 24): under the caller's RLS; the writers check the role too.
  'campaign_audience_count',
  'create_tag',
  'delete_tag',
  'preview_subscribers_matching',
  'rename_tag',
  'tag_counts',
  'tag_subscribers',
  'tag_usage',
  // Automations (issue 24): enrolling a segment by hand checks for an admin itself.
  'enrol_in_automation',
  // The deploy hook (issue 22): each answers only the owner (checked inside).
  'deploy_hook_last_call',
  'test_deploy_hook',
];

let team: Team;

beforeAll(async () => {
  team = await createTeam(await startIsolatedEmulator());
}, 120_000);
afterAll(() => team?.emu.stop());

describe('EXECUTE on the functions in schema public', () => {
  /** Names (one entry per overload, so a new overload of an allowed name shows twice) that `role` may call. */
  async function callable(role: 'anon' | 'authenticated'): Promise<string[]> {
    const { rows } = await team.emu.db.query<{ name: string }>(
      `select p.proname as name
         from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and has_function_privilege($1, p.oid, 'EXECUTE')
        order by 1`,
      [role],
    );
    return rows.map((r) => r.name);
  }

  it('reads the whole catalogue (the service-only functions are in it)', async () => {
    const { rows } = await team.emu.db.query<{ name: string }>(
      `select p.proname as name
         from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'`,
    );
    const names = rows.map((r) => r.name);
    expect(names.length).toBeGreaterThan(40);
    expect(names).toEqual(expect.arrayContaining(['claim_owner', 'hit_rate_limit', 'add_member']));
  });

  it('anon may call exactly the public functions', async () => {
    expect(await callable('anon')).toEqual([...ANON_CALLABLE].sort());
  });

  it('a signed-in user may call exactly the public and the dashboard functions', async () => {
    expect(await callable('authenticated')).toEqual([...SIGNED_IN_CALLABLE].sort());
  });
});

/** What the refused calls aim at, arranged as service role: a draft, a queued import, a stranger. */
interface Fixture {
  campaignId: string;
  importId: string;
  stranger: { id: string; email: string };
}

/**
 * Service-only functions and plausible arguments (a refusal comes before any argument check). Each
 * would, if it ran, change the fixture: enrol the stranger, move the draft or claim the import.
 */
const SERVICE_ONLY: Record<string, (f: Fixture) => Record<string, unknown>> = {
  claim_owner: (f) => ({ p_user_id: f.stranger.id, p_email: f.stranger.email }),
  add_member: (f) => ({
    p_user_id: f.stranger.id,
    p_email: f.stranger.email,
    p_role: 'owner',
    p_invited_by: null,
  }),
  member_candidate: (f) => ({ p_email: f.stranger.email }),
  campaign_action: (f) => ({ p_campaign_id: f.campaignId, p_action: 'cancel', p_at: null }),
  start_campaign_send: (f) => ({ p_campaign_id: f.campaignId, p_body_html: '<p>Hi</p>' }),
  retry_failed_deliveries: (f) => ({ p_campaign_id: f.campaignId }),
  claim_import: (f) => ({ p_import_id: f.importId, p_token: randomUUID(), p_lease_seconds: 60 }),
  start_import: (f) => ({
    p_import_id: f.importId,
    p_token: randomUUID(),
    p_total_rows: 1,
    p_columns: ['email'],
    p_delimiter: ',',
    p_offset: 6,
    p_line: 1,
  }),
  reserve_import_batch: (f) => ({
    p_import_id: f.importId,
    p_token: randomUUID(),
    p_from: 1,
    p_records: 1,
    p_offset: 20,
    p_line: 2,
    p_emails: ['someone@example.com'],
    p_lines: [2],
  }),
  apply_import_batch: (f) => ({
    p_import_id: f.importId,
    p_token: randomUUID(),
    p_from: 1,
    p_rows: [{ line: 2, email: 'someone@example.com' }],
    p_bad: [],
    p_done: true,
    p_lease_seconds: 60,
  }),
  fail_import: (f) => ({ p_import_id: f.importId, p_token: randomUUID(), p_reason: 'probe' }),
  release_import: (f) => ({ p_import_id: f.importId, p_token: randomUUID() }),
};

/** Anon, and the most privileged signed-in roles: every signed-in user runs as `authenticated`. */
const CALLERS: Actor[] = ['anon', 'admin', 'owner'];

describe('service-only functions through the API', () => {
  let fixture: Fixture;

  /** Everything a refused call could have changed. */
  async function state() {
    const service = untyped(team.service);
    return {
      campaign: await one(
        service.from('campaigns').select('*').eq('id', fixture.campaignId).single(),
        'read draft',
      ),
      deliveries: await one(
        service.from('deliveries').select('*').eq('campaign_id', fixture.campaignId),
        'read deliveries',
      ),
      import: await one(
        service.from('imports').select('*').eq('id', fixture.importId).single(),
        'read import',
      ),
      stranger: await one(
        service.from('members').select('*').eq('user_id', fixture.stranger.id),
        'read stranger',
      ),
      owners: await one(service.from('members').select('user_id').eq('role', 'owner'), 'owners'),
    };
  }

  beforeAll(async () => {
    const service = untyped(team.service);
    const list = await one(
      service
        .from('lists')
        .insert({ slug: `rls-fn-${randomUUID().slice(0, 8)}`, name: 'RLS functions' })
        .select('id')
        .single(),
      'seed list',
    );
    const draft = await one(
      service.from('campaigns').insert({ name: 'RLS', subject: 'RLS' }).select('id').single(),
      'seed draft',
    );
    await one(
      service.from('campaign_lists').insert({ campaign_id: draft.id, list_id: list.id }).select(),
      'seed campaign list',
    );
    const queued = await one(
      service
        .from('imports')
        .insert({ object_path: 'rls/probe.csv', list_ids: [list.id] })
        .select('id')
        .single(),
      'seed import',
    );
    const { id, email } = team.users.nonMember;
    fixture = { campaignId: draft.id, importId: queued.id, stranger: { id, email } };
  });

  const cases = Object.keys(SERVICE_ONLY).flatMap((fn) => CALLERS.map((actor) => ({ fn, actor })));
  it.each(cases)('$actor calls $fn → no-grant', async ({ fn, actor }) => {
    const before = await state();
    const answer = await untyped(team.client(actor)).rpc(fn, SERVICE_ONLY[fn]!(fixture));
    expectRefused(answer, actor, 'no-grant', fn, 'function');
    expect(await state()).toEqual(before);
    expect(before.campaign).toMatchObject({ status: 'draft' });
    expect(before.import).toMatchObject({ status: 'queued', lease_token: null });
    expect(before.stranger).toEqual([]);
  });
});
