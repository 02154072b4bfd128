// Test kit for campaign feedback (bounces, complaints, opens, clicks, attributed unsubscribes): a
// campaign really sent through send-campaign and process-queue, and what it left in the database.
import { expect } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql } from '../functions/kit';
import { drainCampaign, newCampaign, sendCampaign, type Member } from './kit';

/** Sends a new campaign to the list `slug` as `admin` and runs the queue until it is sent. */
export async function sentCampaign(
  emu: RunningEmulator,
  admin: Member,
  slug: string,
  fields: { subject?: string; body_md?: string } = {},
): Promise<string> {
  const id = await newCampaign(emu, [slug], fields);
  const res = await sendCampaign(emu, admin, { campaign_id: id, action: 'send' });
  expect(res.status, res.text).toBe(200);
  await drainCampaign(emu, id);
  return id;
}

export interface DeliveryRow {
  subscriber_id: string;
  status: string;
  message_id: string;
}

export async function deliveryTo(
  emu: RunningEmulator,
  campaignId: string,
  email: string,
): Promise<DeliveryRow> {
  const [row] = await sql<DeliveryRow>(
    emu,
    `select d.subscriber_id, d.status, d.message_id from public.deliveries d
       join public.subscribers s on s.id = d.subscriber_id
      where d.campaign_id = $1 and s.email = $2`,
    [campaignId, email],
  );
  if (!row) throw new Error(`no delivery of ${campaignId} to ${email}`);
  return row;
}

export interface EventRow {
  type: string;
  campaign_id: string | null;
  data: Record<string, unknown>;
}

/** The events of one address of these types, oldest first. */
export function eventsOf(
  emu: RunningEmulator,
  email: string,
  types: string[],
): Promise<EventRow[]> {
  return sql<EventRow>(
    emu,
    `select e.type, e.campaign_id, e.data from public.events e
       join public.subscribers s on s.id = e.subscriber_id
      where s.email = $1 and e.type = any($2::text[]) order by e.id`,
    [email, types],
  );
}

/** {slug: status} of one address's subscriptions. */
export async function subscriptionsOf(
  emu: RunningEmulator,
  email: string,
): Promise<Record<string, string>> {
  const rows = await sql<{ slug: string; status: string }>(
    emu,
    `select l.slug, sub.status from public.subscriptions sub
       join public.lists l on l.id = sub.list_id
       join public.subscribers s on s.id = sub.subscriber_id
      where s.email = $1`,
    [email],
  );
  return Object.fromEntries(rows.map((r) => [r.slug, r.status]));
}
