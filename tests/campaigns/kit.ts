// Test kit for campaign sending: an isolated emulator with the real supabase/ folder and chosen
// POSTBOX_* settings, signed-in team members, campaigns and subscribers made in one statement,
// process-queue runs as the scheduler makes them, and counts from MailDev's paged API.
import { randomUUID } from 'node:crypto';
import type { RunningEmulator } from '../../emulator/index';
import {
  callFunction,
  clientFor,
  sql,
  startFunctionsEmulator,
  type CallResult,
} from '../functions/kit';

export type Role = 'viewer' | 'editor' | 'admin' | 'owner';

/** Starts the emulator with these POSTBOX_* settings (they reach Deno through the environment). */
export async function startCampaignEmulator(
  settings: Record<string, string> = {},
  functionsSmtp?: { host: string; port: number },
): Promise<RunningEmulator> {
  Object.assign(process.env, { POSTBOX_QUEUE_TEST_HOOKS: 'on', ...settings });
  return startFunctionsEmulator({ functionsSmtp });
}

export interface Member {
  id: string;
  email: string;
  token: string;
}

/** A signed-in user with a members row of `role` (null: an account that is not on the team). */
export async function member(emu: RunningEmulator, role: Role | null): Promise<Member> {
  const service = clientFor(emu, 'service');
  const email = `${role ?? 'stranger'}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw new Error(`createUser: ${created.error?.message}`);
  const id = created.data.user.id;
  if (role)
    await sql(emu, `insert into public.members (user_id, email, role) values ($1, $2, $3)`, [
      id,
      email,
      role,
    ]);
  const client = clientFor(emu, 'publishable');
  const session = await client.auth.signInWithPassword({ email, password });
  if (session.error || !session.data.session) throw new Error(`signIn: ${session.error?.message}`);
  return { id, email, token: session.data.session.access_token };
}

/** A draft campaign to the lists with these slugs. */
export async function newCampaign(
  emu: RunningEmulator,
  lists: string[],
  fields: { subject?: string; body_md?: string; preheader?: string } = {},
): Promise<string> {
  const [row] = await sql<{ id: string }>(
    emu,
    `insert into public.campaigns (name, subject, body_md, preheader) values ('Test', $1, $2, $3) returning id`,
    [
      fields.subject ?? `Issue ${randomUUID().slice(0, 6)}`,
      fields.body_md ?? '# Hello\n\nNews.',
      fields.preheader ?? '',
    ],
  );
  await sql(
    emu,
    `insert into public.campaign_lists (campaign_id, list_id)
     select $1, id from public.lists where slug = any($2::text[])`,
    [row!.id, lists],
  );
  return row!.id;
}

/** A new public list with `count` confirmed subscribers `<tag>-<i>@example.com`, made in one statement. */
export async function listWithSubscribers(
  emu: RunningEmulator,
  tag: string,
  count: number,
): Promise<string> {
  const slug = `${tag}-${randomUUID().slice(0, 6)}`;
  await sql(
    emu,
    `with l as (insert into public.lists (slug, name, optin) values ($1, $1, 'single') returning id),
          s as (insert into public.subscribers (email)
                select $2 || '-' || i || '@example.com' from generate_series(1, $3::int) i returning id)
     insert into public.subscriptions (subscriber_id, list_id, status)
     select s.id, l.id, 'confirmed' from s cross join l`,
    [slug, tag, count],
  );
  return slug;
}

/** One process-queue run as the scheduler makes it (service-role key). */
export function processQueue(
  emu: RunningEmulator,
  body: Record<string, unknown> = {},
): Promise<CallResult> {
  return callFunction(emu, 'process-queue', { bearer: emu.keys.serviceRole, body });
}

export function sendCampaign(
  emu: RunningEmulator,
  who: Member | null,
  body: Record<string, unknown>,
): Promise<CallResult> {
  return callFunction(emu, 'send-campaign', { body, ...(who ? { bearer: who.token } : {}) });
}

export async function deliveryCounts(
  emu: RunningEmulator,
  campaignId: string,
): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(
    emu,
    `select status, count(*)::int as n from public.deliveries where campaign_id = $1 group by status`,
    [campaignId],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export async function campaignRow(
  emu: RunningEmulator,
  id: string,
): Promise<Record<string, unknown>> {
  const [row] = await sql(emu, `select * from public.campaigns where id = $1`, [id]);
  return row!;
}

interface Summary {
  id: string;
  to: { address: string }[];
  subject: string;
}

/** Every caught message's id, recipients and subject, read 200 at a time (no bodies). */
export async function mailSummaries(emu: RunningEmulator): Promise<Summary[]> {
  const all: Summary[] = [];
  for (let skip = 0; ; skip += 200) {
    const response = await fetch(
      `${emu.mail!.url}/api/email/summary?skip=${skip}&limit=200&sort=asc`,
    );
    const page = (await response.json()) as { items: Summary[]; total: number };
    all.push(...page.items);
    if (page.items.length < 200) return all;
  }
}

/** Messages caught per recipient address, for addresses matching `prefix`. */
export async function mailCountsByRecipient(
  emu: RunningEmulator,
  prefix: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const mail of await mailSummaries(emu)) {
    for (const to of mail.to) {
      const address = to.address.toLowerCase();
      if (address.startsWith(prefix)) counts.set(address, (counts.get(address) ?? 0) + 1);
    }
  }
  return counts;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Runs process-queue until the campaign is sent (send-campaign's own kick may already be on it). */
export async function drainCampaign(emu: RunningEmulator, id: string): Promise<void> {
  await until(
    async () => {
      await processQueue(emu, { budget_ms: 5000 });
      return (await campaignRow(emu, id)).status === 'sent';
    },
    60_000,
    `campaign ${id} to be sent`,
  );
}

/** The header block of a caught message as sent (MailDev's JSON keeps only a few headers), by lower-case name. */
export async function sourceHeaders(
  emu: RunningEmulator,
  mailId: string,
): Promise<Record<string, string>> {
  const source = await (await fetch(`${emu.mail!.url}/api/email/${mailId}/source`)).text();
  const block = source.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] ??= line.slice(colon + 1).trim();
  }
  return headers;
}
