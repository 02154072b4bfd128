// The branded layout (issue 21): site name or logo, the accent colour, the footer's links and
// reason, the body's inline typography and buttons, and caniemail's support data for Gmail,
// Outlook and Apple Mail on a campaign that uses every element the editor allows.
import { describe, expect, it } from 'vitest';
import {
  accentProblem,
  contrastWithWhite,
  normalizeAccent,
  safeAccent,
} from '../../lib/email-render/accent';
import { compileCampaign, renderCampaign } from '../../lib/email-render/campaign';
import { brandedLayout } from '../../lib/email-render/layout';
import { recipientScope } from '../../lib/email-render/merge-tags';
import { siteRenderDeps } from '../../lib/email-render/site';
import { caniemailProblems, compactStyles, layoutRuleProblems } from './caniemail-rules';

const EVERY_ELEMENT = `Hi {{ subscriber.first_name | default: "friend" }},

# Heading one
## Heading two
### Heading three

Text with **bold**, *italic*, ~~struck~~, \`code\` and [a link](https://example.com/a).

- one
- two

1. first
2. second

> A quote.

\`\`\`
code block
\`\`\`

| Left | Right |
| :--- | ---: |
| a | b |

![A chart](https://example.com/chart.png)

[Read more](https://example.com/more)

https://example.com/pasted

---

Bye`;

const links = {
  unsubscribe: 'https://news.example.com/unsubscribe/?token=u',
  preferences: 'https://news.example.com/preferences/?token=p',
  web: 'https://news.example.com/web/?token=w',
};

function email(settings: Parameters<typeof brandedLayout>[1], body = EVERY_ELEMENT) {
  const compiled = compileCampaign(
    siteRenderDeps,
    { subject: 'Weekly', preheader: 'This week', body_md: body },
    settings,
  );
  const rendered = renderCampaign(
    compiled,
    recipientScope({
      subscriber: { email: 'ada@example.com', name: 'Ada', attributes: {} },
      site: { name: settings.site_name, url: 'https://news.example.com' },
      subject: 'Weekly',
      links,
    }),
  );
  return { ...rendered, bodyHtml: rendered.bodyHtml, html: compactStyles(rendered.html) };
}

const base = { site_name: 'Maker <News>', postal_address: '1 Main St\nSpringfield' };

describe('accent colour', () => {
  it('computes WCAG contrast against white and refuses light colours', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 1);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#1f4fd1')).toBeGreaterThan(4.5);
    expect(accentProblem('#1f4fd1')).toBeNull();
    expect(accentProblem('#ffcc00')).toMatch(/too light.*1\.\d:1/);
    expect(accentProblem('blue')).toMatch(/#rrggbb/);
    expect(normalizeAccent(' #0F7 ')).toBe('#00ff77');
    expect(normalizeAccent('0f766e')).toBe('#0f766e');
    expect(safeAccent('#ffcc00')).toBe('#1f4fd1');
    expect(safeAccent('#0f766e')).toBe('#0f766e');
  });
});

describe('branded layout', () => {
  it('shows the site name in the accent colour, the footer links, the reason and the address', () => {
    const { html, text } = email({ ...base, accent_color: '#0f766e' });
    expect(html).toContain('border-top:4px solid #0f766e');
    expect(html).toContain('font-weight:700;color:#0f766e">Maker &lt;News&gt;</span>');
    expect(html).toContain(`<a href="${links.web}"`);
    expect(html.match(/View in browser/g)).toHaveLength(2);
    expect(html).toContain(`<a href="${links.unsubscribe}"`);
    expect(html).toContain(`<a href="${links.preferences}"`);
    expect(html).toContain('subscribed to Maker &lt;News&gt;.');
    expect(html).toContain('1 Main St<br>Springfield');
    expect(html).toContain('>This week</div>');
    expect(text).toContain(`Unsubscribe: ${links.unsubscribe}`);
    expect(text).toContain(`View in browser: ${links.web}`);
  });

  it('shows the logo with a size and the site name as its alt text', () => {
    const { html } = email({ ...base, logo_url: 'https://cdn.example.com/logo.png' });
    expect(html).toMatch(
      /<img class="pb-logo" src="https:\/\/cdn\.example\.com\/logo\.png" alt="Maker &lt;News&gt;" height="40" style="display:block;/,
    );
    expect(html).not.toContain('font-weight:700;color:#1f4fd1">Maker');
  });

  it('falls back to the default accent for an unreadable colour', () => {
    expect(email({ ...base, accent_color: '#ffff00' }).html).toContain('solid #1f4fd1');
  });

  it('styles the body inline: links and quotes in the accent, tables, code, buttons', () => {
    const { html } = email({ ...base, accent_color: '#0f766e' });
    expect(html).toContain('<a href="https://example.com/a" rel="noopener" style="color:#0f766e;');
    expect(html).toMatch(/<blockquote style="[^"]*border-left:4px solid #0f766e/);
    expect(html).toMatch(
      /<table role="presentation" width="100%" style="[^"]*border-collapse:collapse[^"]*">/,
    );
    expect(html).toMatch(/<td align="right" style="[^"]*text-align:right">b<\/td>/);
    expect(html).toMatch(/<pre style="[^"]*background-color:#f4f4f5/);
    expect(html).toMatch(
      /<img src="https:\/\/example\.com\/chart\.png" alt="A chart" style="display:block;[^"]*max-width:100%/,
    );
    // A link alone in its paragraph is a button; a pasted address stays a link.
    expect(html).toMatch(
      /<td align="center" bgcolor="#0f766e"[^>]*><a href="https:\/\/example\.com\/more" rel="noopener" style="display:inline-block;[^"]*color:#ffffff[^"]*">Read more<\/a>/,
    );
    expect(html).toMatch(/<p style="margin:0 0 16px"><a href="https:\/\/example\.com\/pasted"/);
  });

  it('keeps the archive body free of the email styles', () => {
    const rendered = email(base);
    expect(rendered.bodyHtml).toContain('<h1>Heading one</h1>');
    expect(rendered.bodyHtml).not.toContain('style="margin');
  });
});

describe('caniemail', () => {
  it('uses nothing Gmail, Outlook or Apple Mail lacks but the listed enhancements', () => {
    for (const settings of [base, { ...base, logo_url: 'https://cdn.example.com/logo.png' }]) {
      const { html } = email(settings);
      expect(caniemailProblems(html)).toEqual([]);
      expect(layoutRuleProblems(html)).toEqual([]);
    }
  });

  it('catches what the rules forbid', () => {
    const bad =
      '<!doctype html><html><body><div style="display:flex;color:var(--x)">' +
      '<img src="https://x/y.png"></div></body></html>';
    expect(caniemailProblems(bad).join('\n')).toMatch(/display:flex|flex/);
    expect(layoutRuleProblems(bad)).toEqual([
      expect.stringMatching(/^flex\/grid/),
      expect.stringMatching(/^CSS variable/),
      expect.stringMatching(/^image without alt/),
      expect.stringMatching(/^image without size/),
    ]);
  });
});
