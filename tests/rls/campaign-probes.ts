// Fixtures for the campaign rows of the RLS matrix: drafts, archived sent campaigns, their lists
// and deliveries, arranged as service role the way send-campaign moves them.
import { randomUUID } from 'node:crypto';
import type { CampaignTarget, LockedStatus } from './matrix';
import { one, type Probe } from './probes';
import { uniqueEmail, untyped, type Client } from './team-kit';

const slugOf = (label: string) => `rls-${label}-${randomUUID().slice(0, 8)}`;

/** Builds the probes over one service client and a list campaigns can be sent to. */
export function makeCampaignProbes(
  serviceClient: Client,
  listId: string,
): Record<CampaignTarget, Probe> {
  const service = untyped(serviceClient);
  const draft = async () => {
    const slug = slugOf('draft');
    const row = await one(
      service.from('campaigns').insert({ name: slug, slug }).select('id').single(),
      'seed draft',
    );
    return { id: row.id as string, slug };
  };
  // From draft to `status` the way send-campaign and process-queue move it.
  const PATHS: Record<LockedStatus | 'sent', Record<string, unknown>[]> = {
    scheduled: [
      { status: 'scheduled', scheduled_at: new Date(Date.now() + 86_400_000).toISOString() },
    ],
    sending: [{ status: 'sending' }],
    paused: [{ status: 'sending' }, { status: 'paused' }],
    cancelled: [{ status: 'cancelled' }],
    sent: [{ status: 'sending' }, { status: 'sent' }],
  };
  const move = async (id: string, status: LockedStatus | 'sent') => {
    for (const step of PATHS[status]) {
      await one(service.from('campaigns').update(step).eq('id', id).select(), `${step.status}`);
    }
  };
  const inState = async (status: LockedStatus | 'sent') => {
    const campaign = await draft();
    await move(campaign.id, status);
    return campaign;
  };
  // draft → sending → sent, archived, so it would be in the public archive.
  const sent = async () => {
    const { id, slug } = await draft();
    await one(service.from('campaigns').update({ archive: true }).eq('id', id).select(), 'archive');
    await move(id, 'sent');
    return { id, slug };
  };
  const locked = (status: LockedStatus): Probe => ({
    table: 'campaigns',
    columns: '*',
    seed: async () => ({ slug: (await inState(status)).slug }),
    newRow: () => Promise.reject(new Error(`${status} campaigns are not inserted`)),
    change: () => ({ archive: true }),
  });
  // The list of a campaign chosen while it was a draft; a new one chosen after.
  const listsOf = (status: LockedStatus | 'sent'): Probe => ({
    table: 'campaign_lists',
    columns: '*',
    async seed() {
      const { id } = await draft();
      const key = { campaign_id: id, list_id: listId };
      await one(service.from('campaign_lists').insert(key).select(), 'seed campaign list');
      await move(id, status);
      return key;
    },
    async newRow() {
      const key = { campaign_id: (await inState(status)).id, list_id: listId };
      return { row: key, key };
    },
    change: () => ({}),
  });

  return {
    campaigns: {
      table: 'campaigns',
      columns: '*',
      seed: async () => ({ slug: (await draft()).slug }),
      async newRow() {
        // Only the content columns are granted to signed-in callers.
        const slug = slugOf('new');
        return { row: { name: 'New issue', subject: 'Hello', slug }, key: { slug } };
      },
      change: () => ({ subject: `Changed ${randomUUID().slice(0, 8)}` }),
    },
    'sent campaigns': {
      table: 'campaigns',
      columns: '*',
      seed: async () => ({ slug: (await sent()).slug }),
      newRow: () => Promise.reject(new Error('sent campaigns are not inserted')),
      // Not content (that the transition trigger refuses even to the service role): the archive flag.
      change: () => ({ archive: false }),
    },
    'scheduled campaigns': locked('scheduled'),
    'sending campaigns': locked('sending'),
    // Admins may correct a paused campaign's content (issue 23): the probe changes its subject.
    'paused campaigns': {
      ...locked('paused'),
      change: () => ({ subject: `Corrected ${randomUUID().slice(0, 8)}` }),
    },
    'cancelled campaigns': locked('cancelled'),
    'campaign_lists of a scheduled campaign': listsOf('scheduled'),
    'campaign_lists of a sending campaign': listsOf('sending'),
    'campaign_lists of a paused campaign': listsOf('paused'),
    'campaign_lists of a cancelled campaign': listsOf('cancelled'),
    'campaign_lists of a sent campaign': listsOf('sent'),
    campaign_lists: {
      table: 'campaign_lists',
      columns: '*',
      async seed() {
        const key = { campaign_id: (await draft()).id, list_id: listId };
        await one(service.from('campaign_lists').insert(key).select(), 'seed campaign list');
        return key;
      },
      async newRow() {
        const key = { campaign_id: (await draft()).id, list_id: listId };
        return { row: key, key };
      },
      change: () => ({}),
    },
    deliveries: {
      table: 'deliveries',
      columns: '*',
      async seed() {
        const { row, key } = await this.newRow();
        await one(service.from('deliveries').insert(row).select(), 'seed delivery');
        return key;
      },
      async newRow() {
        const campaign = await sent();
        const subscriber = await one(
          service
            .from('subscribers')
            .insert({ email: uniqueEmail('rcpt') })
            .select('id')
            .single(),
          'seed recipient',
        );
        const key = { campaign_id: campaign.id, subscriber_id: subscriber.id as string };
        return { row: { ...key, status: 'queued' }, key };
      },
      change: () => ({ last_error: `probe ${randomUUID().slice(0, 8)}` }),
    },
  };
}
