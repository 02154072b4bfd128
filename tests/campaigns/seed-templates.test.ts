// The campaign templates supabase/seed.sql ships (issue 23) are real starting points: each one's
// subject, preheader and body compile with the campaign renderer and render for a named reader, a
// reader without a name (the defaults read well) and nobody (the archive), leaving no tag behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCampaign, renderCampaign } from '../../lib/email-render/campaign';
import { recipientScope, sampleWaitlist } from '../../lib/email-render/merge-tags';
import { siteRenderDeps } from '../../lib/email-render/site';

const seed = readFileSync(join(__dirname, '../../supabase/seed.sql'), 'utf8');
const quoted = "'((?:[^']|'')*)'";
const row = new RegExp(
  `\\(${quoted},\\s*${quoted},\\s*${quoted},\\s*${quoted},\\s*\\$md\\$([\\s\\S]*?)\\$md\\$\\)`,
  'g',
);
const unquote = (s: string) => s.replace(/''/g, "'");
const templates = [...seed.slice(seed.indexOf('campaign_templates')).matchAll(row)].map((m) => ({
  name: unquote(m[1]!),
  subject: unquote(m[3]!),
  preheader: unquote(m[4]!),
  body: m[5]!,
}));

const settings = { site_name: 'Maker News', postal_address: '1 Main St, Springfield' };
const site = { name: 'Maker News', url: 'https://news.example.com' };
const links = {
  unsubscribe: 'https://news.example.com/unsubscribe/?token=u',
  preferences: 'https://news.example.com/preferences/?token=p',
  web: 'https://news.example.com/web/?token=w',
};

describe('seeded campaign templates', () => {
  it('ships the three starting points', () => {
    expect(templates.map((t) => t.name)).toEqual([
      'Plain newsletter',
      'Product update',
      'Welcome digest',
    ]);
  });

  for (const template of templates) {
    it(`${template.name} renders for a reader, a nameless reader and the archive`, () => {
      const compiled = compileCampaign(
        siteRenderDeps,
        { subject: template.subject, preheader: template.preheader, body_md: template.body },
        settings,
      );
      const readers = [
        { id: 's1', email: 'ada@example.com', name: 'Ada Lovelace', attributes: {} },
        { id: 's2', email: 'anon@example.com', name: null, attributes: {} },
      ];
      for (const subscriber of readers) {
        const out = renderCampaign(
          compiled,
          recipientScope({
            subscriber,
            site,
            subject: template.subject,
            links,
            waitlist: sampleWaitlist(site.url),
          }),
        );
        expect(out.subject).toContain('Maker News');
        expect(out.text).toMatch(subscriber.name ? /Hi Ada,/ : /Hi (friend|there),/);
        expect(out.html).toContain('<h2');
        expect(`${out.subject}${out.html}${out.text}`).not.toMatch(/\{\{|\{%/);
      }
      const archive = renderCampaign(
        compiled,
        recipientScope({ subscriber: null, site, subject: template.subject, links: null }),
      );
      expect(archive.bodyHtml).not.toContain('ada@example.com');
    });
  }
});
