// The send benchmark compares like with like (issue 21): the plain newsletter is the tagged one as a
// typical reader gets it, so both render to the same bytes and the ratio measures the tags alone.
import { describe, expect, it } from 'vitest';
import { compileCampaign, renderCampaign } from '../lib/email-render/campaign';
import { recipientScope } from '../lib/email-render/merge-tags';
import { siteRenderDeps } from '../lib/email-render/site';
import { PLAIN_BODY, TAGGED_BODY, type CampaignBody } from './send-bodies';

const site = { name: 'The Postbox Letter', url: 'https://news.example.com' };

function rendered(body: CampaignBody) {
  const compiled = compileCampaign(
    siteRenderDeps,
    { subject: body.subject, preheader: '', body_md: body.body_md },
    { site_name: site.name, postal_address: '1 Main St' },
  );
  return renderCampaign(
    compiled,
    recipientScope({
      // A named reader of the benchmark's fixture (`send-<6 hex>-<i>@example.com`, "Reader <i>").
      subscriber: { email: 'send-a1b2c3-5000@example.com', name: 'Reader 5000', attributes: {} },
      site,
      subject: body.subject,
      links: null,
    }),
  );
}

describe('the send benchmark’s bodies', () => {
  it('the plain body is the tagged one as a reader gets it: the same subject and HTML size', () => {
    const plain = rendered(PLAIN_BODY);
    const tagged = rendered(TAGGED_BODY);
    expect(TAGGED_BODY.body_md).toContain('{{');
    expect(PLAIN_BODY.body_md).not.toContain('{{');
    expect(plain.subject).toBe(tagged.subject);
    // No autolinked address on the plain side (the tag's value is filled in after Markdown).
    expect(plain.html).not.toContain('mailto:');
    expect(plain.html.length).toBe(tagged.html.length);
    // The text part's heading underlines are measured on the template (see the closing note of
    // 2026-12-02): within 5 % of each other.
    expect(Math.abs(plain.text.length - tagged.text.length) / tagged.text.length).toBeLessThan(
      0.05,
    );
  });
});
