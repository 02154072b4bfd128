// SPEC §6 as data: who may do what to each table, each storage bucket, realtime and the service-only
// RPC, and how the API answers a refusal. matrix.integration.test.ts generates one case per cell.
import type { Actor } from './team-kit';

export type Table = 'settings' | 'members' | 'lists' | 'subscribers' | 'subscriptions' | 'events';
/** The campaign states after draft other than sent: nobody edits them (SPEC §4). */
export type LockedStatus = 'scheduled' | 'sending' | 'paused' | 'cancelled';
/**
 * Campaign tables; `campaigns` targets a draft, `sent campaigns` an archived, sent one, the others a
 * campaign in that state; `campaign_lists` a draft's list, `campaign_lists of a … campaign` the
 * list of a campaign in that state.
 */
export type CampaignTarget =
  | 'campaigns'
  | 'sent campaigns'
  | `${LockedStatus} campaigns`
  | 'campaign_lists'
  | `campaign_lists of a ${LockedStatus | 'sent'} campaign`
  | 'deliveries';
/** `imports` as the import dialog writes it; `imports, worker columns` with what only the worker sets. */
export type ImportTarget = 'imports' | 'imports, worker columns';
export type TableOp = 'select' | 'insert' | 'update' | 'delete';
export type StorageOp = 'upload' | 'replace' | 'list' | 'download' | 'public url' | 'delete';
export type Bucket = 'media' | 'imports' | 'exports';

/**
 * What the caller sees, exactly as upstream PostgREST / Storage answer it:
 * - `ok`: allowed. select returns the row; insert 201; update/delete 204 and the change is there.
 * - `public`: select returns only what is meant for everyone (public lists; for settings the four
 *   public columns, while asking for any other column is `no-grant`).
 * - `hidden`: select answers 200 with no rows: the RLS USING clause filters everything.
 * - `no-grant`: 42501 "permission denied for table|function …": the role lacks the GRANT.
 *   PostgREST answers 401 to the anon role and 403 to everyone else.
 * - `rls`: insert refused by WITH CHECK: 42501 "new row violates row-level security policy for
 *   table …", 401 anon / 403 signed in. Storage: HTTP 400 with statusCode "403".
 * - `noop`: update/delete answer 204 (storage remove: 200 []) and change nothing: the row fails
 *   the USING clause. A service-role re-read proves the row is as it was.
 */
export type Outcome = 'ok' | 'public' | 'hidden' | 'no-grant' | 'rls' | 'noop';

/** Column order of every row below. */
// prettier-ignore
export const COLUMNS = ['anon', 'nonMember', 'viewer', 'editor', 'admin', 'owner', 'service'] as const;
export type Row = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

// prettier-ignore
export const TABLES: Record<Table, Record<TableOp, Row>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  settings: {
    select:     ['public',   'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'ok',       'ok'],
    delete:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  },
  members: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'ok',       'ok'],
  },
  lists: {
    select:     ['public',   'public',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'ok',       'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
  },
  subscribers: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'ok',       'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'ok',       'ok'],
  },
  subscriptions: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'ok',       'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
  },
  // Written by triggers and functions only: signed-in roles hold SELECT alone.
  events: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    update:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    delete:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  },
};

/**
 * SPEC §6 "editor: + write draft campaigns"; only a draft is editable (SPEC §4). Status changes go
 * through send-campaign (service role). A row left out is not a client operation: campaign_lists
 * rows are chosen or unchosen, never updated. "anon: archived sent campaigns" is answered by
 * archive_issues() and archive_issue() (lib/archive.integration.test.ts), which give everyone the
 * reader's columns only; the table itself is for members.
 */
// prettier-ignore
export const CAMPAIGN_TABLES: Record<CampaignTarget, Partial<Record<TableOp, Row>>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  campaigns: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'ok',       'ok',       'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'ok',       'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'ok',       'ok',       'ok',       'ok'],
  },
  'sent campaigns': {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
  },
  // Past draft: scheduling, pausing or cancelling is send-campaign's (service role). The update
  // changes the archive flag, which the transition trigger lets the service role change in any
  // state; for a caller the USING clause (status = 'draft') filters the row whatever the columns.
  'scheduled campaigns': {
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  'sending campaigns': {
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  // Paused: admins may correct the subject, preheader, body and name before resuming (issue 23;
  // the transition trigger refuses the sender, archive and slug); editors may not.
  'paused campaigns': {
    update:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  // Finished: admins may delete it, as a sent one.
  'cancelled campaigns': {
    update:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
  },
  campaign_lists: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'ok',       'ok',       'ok',       'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'ok',       'ok',       'ok',       'ok'],
  },
  // The recipients are fixed once a campaign leaves draft: its lists are chosen for good.
  'campaign_lists of a scheduled campaign': {
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  'campaign_lists of a sending campaign': {
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  'campaign_lists of a paused campaign': {
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  'campaign_lists of a cancelled campaign': {
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  'campaign_lists of a sent campaign': {
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
    delete:     ['no-grant', 'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
  },
  // Written by the send functions only.
  deliveries: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    update:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    delete:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  },
};

/**
 * SPEC §6 "viewer: read everything in the admin; admin: + manage … imports": members read the
 * progress, an admin queues an import of their own with the three columns the dialog sends
 * (object_path, list_ids, optin). Status, counters, lease and author belong to import-subscribers
 * (service role): signed-in roles hold no UPDATE or DELETE and no INSERT on the other columns.
 */
// prettier-ignore
export const IMPORT_TABLES: Record<ImportTarget, Partial<Record<TableOp, Row>>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  imports: {
    select:     ['no-grant', 'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
    insert:     ['no-grant', 'rls',      'rls',      'rls',      'ok',       'ok',       'ok'],
    update:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
    delete:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  },
  'imports, worker columns': {
    insert:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  },
};

/** storage.objects in the public `media` bucket, through the Storage API. */
// prettier-ignore
export const MEDIA: Partial<Record<StorageOp, Row>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  upload:       ['rls',      'rls',      'rls',      'ok',       'ok',       'ok',       'ok'],
  // Upload with upsert over an existing file (a new logo under the same name).
  replace:      ['rls',      'rls',      'rls',      'ok',       'ok',       'ok',       'ok'],
  list:         ['hidden',   'hidden',   'ok',       'ok',       'ok',       'ok',       'ok'],
  // A public bucket: the image URL works for everyone, without RLS (the logo on the public site).
  'public url': ['ok',       'ok',       'ok',       'ok',       'ok',       'ok',       'ok'],
  delete:       ['noop',     'noop',     'noop',     'noop',     'ok',       'ok',       'ok'],
};

/**
 * The private `imports` bucket: the CSV an admin uploads before queueing the import, read back by
 * import-subscribers (service role). Admins and the owner upload and read; there is no UPDATE or
 * DELETE policy: an upload never overwrites (each path is new, lib/admin/imports.ts) and the files
 * are the service role's to remove. `download` is the authenticated object endpoint; `hidden`: 400
 * with statusCode "404", as for a file that does not exist.
 */
// prettier-ignore
export const IMPORTS_BUCKET: Partial<Record<StorageOp, Row>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  upload:       ['rls',      'rls',      'rls',      'rls',      'ok',       'ok',       'ok'],
  replace:      ['rls',      'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
  list:         ['hidden',   'hidden',   'hidden',   'hidden',   'ok',       'ok',       'ok'],
  download:     ['hidden',   'hidden',   'hidden',   'hidden',   'ok',       'ok',       'ok'],
  delete:       ['noop',     'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
};

/**
 * The private `exports` bucket: no policy names it. export-subscribers (service role, after its
 * own admin check) writes the CSV and hands out a signed URL; no client reaches the objects.
 */
// prettier-ignore
export const EXPORTS_BUCKET: Partial<Record<StorageOp, Row>> = {
  //              anon        nonMember   viewer      editor      admin       owner       service
  upload:       ['rls',      'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
  replace:      ['rls',      'rls',      'rls',      'rls',      'rls',      'rls',      'ok'],
  list:         ['hidden',   'hidden',   'hidden',   'hidden',   'hidden',   'hidden',   'ok'],
  download:     ['hidden',   'hidden',   'hidden',   'hidden',   'hidden',   'hidden',   'ok'],
  delete:       ['noop',     'noop',     'noop',     'noop',     'noop',     'noop',     'ok'],
};

export const BUCKETS: Record<Bucket, Partial<Record<StorageOp, Row>>> = {
  media: MEDIA,
  imports: IMPORTS_BUCKET,
  exports: EXPORTS_BUCKET,
};

/**
 * Realtime: the team's live feeds are private broadcast topics (migration 20261127100000), joined
 * only by those RLS on realtime.messages lets read them; no table is in supabase_realtime, so
 * postgres_changes says nothing about subscribers (SPEC §7). `ok`: the join succeeds and the
 * topic's message for a row inserted as service role arrives. `rls`: the join is refused
 * ("Unauthorized: You do not have permissions to read from this Channel topic").
 */
export type RealtimeTopic =
  'team:audience' | 'team:campaigns' | 'team:imports' | 'team:automations';
// prettier-ignore
export const REALTIME: Record<RealtimeTopic, Row> = {
  //                   anon        nonMember   viewer      editor      admin       owner       service
  'team:audience':   ['rls',      'rls',      'ok',       'ok',       'ok',       'ok',       'ok'],
  'team:campaigns':  ['rls',      'rls',      'ok',       'ok',       'ok',       'ok',       'ok'],
  'team:imports':    ['rls',      'rls',      'ok',       'ok',       'ok',       'ok',       'ok'],
  'team:automations': ['rls',      'rls',      'ok',       'ok',       'ok',       'ok',       'ok'],
};

/** public.hit_rate_limit(): EXECUTE for service_role only (the edge functions). */
// prettier-ignore
export const RATE_LIMIT_RPC: Row =
                ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'];

/**
 * Campaign feedback writers (email-events, track, unsubscribe from a campaign): EXECUTE for
 * service_role only, so the webhook secret and the signed tokens cannot be skipped.
 */
export type FeedbackRpc =
  'record_email_events' | 'record_tracking_event' | 'unsubscribe_with_campaign';
// prettier-ignore
export const FEEDBACK_RPCS: Record<FeedbackRpc, Row> = {
  //                           anon        nonMember   viewer      editor      admin       owner       service
  record_email_events:       ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  record_tracking_event:     ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
  unsubscribe_with_campaign: ['no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'no-grant', 'ok'],
};

export interface Cell<Op extends string> {
  actor: Actor;
  op: Op;
  outcome: Outcome;
}

/** Every (actor, op) pair of one row set, in matrix order. */
export function cells<Op extends string>(rows: Partial<Record<Op, Row>>): Cell<Op>[] {
  return (Object.keys(rows) as Op[]).flatMap((op) =>
    COLUMNS.map((actor, i) => ({ actor, op, outcome: rows[op]![i] as Outcome })),
  );
}
