// Fixtures for the campaign rows of the RLS matrix: drafts, archived sent campaigns, their lists
// and deliveries, arranged as service role the way send-campaign moves them.
import { randomUUID } from 'node:crypto';
import type { CampaignTarget } from './matrix';
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
  // draft → sending → sent, as the functions move it; archived, so everyone may read it.
  const sent = async () => {
    const { id, slug } = await draft();
    await one(service.from('campaigns').update({ archive: true }).eq('id', id).select(), 'archive');
    for (const status of ['sending', 'sent']) {
      await one(service.from('campaigns').update({ status }).eq('id', id).select(), status);
    }
    return { id, slug };
  };

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
