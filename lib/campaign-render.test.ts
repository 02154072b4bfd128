// The shared campaign renderer as the browser runs it: Markdown formatting survives, and nothing
// that could run (script, handlers, javascript: and data: URLs, iframes, styles) gets through.
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_IMAGE_STYLE } from './campaign-render';
import { renderCampaignPreviewHtml as render } from './campaign-preview';

describe('renderCampaignHtml (shared rules)', () => {
  it('renders Markdown formatting, lists, tables and links', () => {
    const html = render(
      '# Hello\n\nSome **bold** and _em_ and [a link](https://example.com).\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Hello</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<a href="https://example.com" rel="noopener">a link</a>');
    expect(html).toMatch(/<ol>\s*<li>one<\/li>/);
    expect(html).toContain('<td>1</td>');
  });

  it('drops script and style elements with their content', () => {
    const html = render('Hi <script>alert(1)</script><style>body{display:none}</style> there');
    expect(html).not.toMatch(/script|alert|style|display/i);
    expect(html).toContain('Hi');
    expect(html).toContain('there');
  });

  it('removes on* handlers from allowed tags', () => {
    const html = render(
      '<img src="https://example.com/a.png" onerror="alert(1)" alt="x"> <a href="https://x.test" onclick="alert(2)">x</a>',
    );
    expect(html).not.toMatch(/onerror|onclick|alert/i);
    expect(html).toContain('src="https://example.com/a.png"');
  });

  it('makes javascript:, data: and protocol-relative URLs harmless', () => {
    const html = render(
      '[click](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">two</a> ![i](data:image/png;base64,AAAA) <a href="//evil.test/">three</a>',
    );
    expect(html).not.toMatch(/javascript|alert|data:|evil\.test/i);
    expect(html).toContain('two');
    expect(html).toContain('three');
  });

  it('drops iframes, forms and inputs', () => {
    const html = render(
      '<iframe src="https://evil.test"></iframe><form action="https://evil.test"><input name="a"></form>ok',
    );
    expect(html).not.toMatch(/iframe|form|input|evil/i);
    expect(html).toContain('ok');
  });

  it('gives images the fixed responsive style, replacing any inline style', () => {
    const html = render('![Logo](https://cdn.example.com/logo.png "Title")');
    expect(html).toBe(
      `<p><img src="https://cdn.example.com/logo.png" alt="Logo" title="Title" style="${CAMPAIGN_IMAGE_STYLE}" /></p>`,
    );
    expect(render('<img src="https://a.test/x.png" style="position:fixed">')).not.toContain(
      'fixed',
    );
  });

  it('keeps mailto links and forces rel="noopener" over a given rel', () => {
    expect(render('<a href="mailto:a@example.com" rel="opener">mail</a>')).toBe(
      '<p><a href="mailto:a@example.com" rel="noopener">mail</a></p>',
    );
  });
});
