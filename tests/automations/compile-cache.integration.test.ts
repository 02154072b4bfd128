// process-queue keeps compiled emails between its runs (lib/email-render/campaign-cache.ts, issues
// 21 and 24): one Deno isolate serves every run here, so these sends go through the cache. An email
// step edited while the automation is live, or new branding, must reach the next reader at once —
// never the compilation an earlier run kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { createSubscriber, sql, waitForMail } from '../functions/kit';
import { startCampaignEmulator } from '../campaigns/kit';
import { drainAutomations, newAutomation, newList } from './kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

describe('compiled emails kept between process-queue runs', () => {
  it('sends a live step as edited, and with the branding as it is now', async () => {
    const list = await newList(emu, 'cache');
    const id = await newAutomation(emu, {
      trigger: { list: list.slug },
      steps: [{ kind: 'email', subject: 'First words', body_md: 'Version **one**.' }],
    });
    const [step] = await sql<{ id: string }>(
      emu,
      `select id from public.automation_steps where automation_id = $1`,
      [id],
    );

    const ann = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { name: 'Ann' });
    await drainAutomations(emu);
    const [first] = await waitForMail(emu, ann.email, 1);
    expect(first!.subject).toBe('First words');
    expect(first!.html).toContain('Version <strong>one</strong>.');

    // The same step, edited while live: the next reader gets the new words.
    await sql(
      emu,
      `update public.automation_steps set subject = 'Second words', body_md = 'Version **two**, {{ subscriber.first_name }}.' where id = $1`,
      [step!.id],
    );
    const bo = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { name: 'Bo Lind' });
    await drainAutomations(emu);
    const [second] = await waitForMail(emu, bo.email, 1);
    expect(second!.subject).toBe('Second words');
    expect(second!.html).toContain('Version <strong>two</strong>, Bo.');
    expect(second!.html).not.toContain('Version <strong>one</strong>');

    // New branding is part of the compiled layout: the next email has the new accent colour.
    const [before] = await sql<{ accent_color: string | null }>(
      emu,
      'select accent_color from public.settings',
    );
    await sql(emu, `update public.settings set accent_color = '#7a1f5c'`);
    try {
      const cy = await createSubscriber(emu, { [list.slug]: 'confirmed' }, { name: 'Cy' });
      await drainAutomations(emu);
      const [third] = await waitForMail(emu, cy.email, 1);
      expect(third!.html.toLowerCase()).toContain('#7a1f5c');
      expect(second!.html.toLowerCase()).not.toContain('#7a1f5c');
      expect(third!.html).toContain('Version <strong>two</strong>, Cy.');
    } finally {
      await sql(emu, 'update public.settings set accent_color = $1', [before!.accent_color]);
    }
  });
});
