// The build's conversion of an issue body (parse5 → safe nodes → React), as /archive/<slug>/ puts
// it in the exported HTML: the renderer's output comes through, nothing that could run does.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderSafeNodes } from '../archive-html';
import { renderCampaignPreviewHtml } from '../campaign-preview';
import { issueBodySafeNodesAtBuild } from './archive-body';

const BASE = 'https://letters.example/archive/first-issue/';

function markup(html: string): string {
  return renderToStaticMarkup(
    createElement('div', null, ...renderSafeNodes(issueBodySafeNodesAtBuild(html, BASE))),
  );
}

describe('issueBodySafeNodesAtBuild', () => {
  it('keeps the renderer output, headings one level down, links safe and tables in a region', () => {
    const html = renderCampaignPreviewHtml(
      '# Hello\n\nSome **bold** and a [link](https://example.com/a).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```',
    );
    const out = markup(html);
    expect(out).toContain('<h2>Hello</h2>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain(
      '<a href="https://example.com/a" rel="noopener noreferrer nofollow">link</a>',
    );
    expect(out).toContain(
      '<div class="issue-table" role="region" aria-label="Table" tabindex="0"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>',
    );
    expect(out).toContain('<pre tabindex="0"><code>code\n</code></pre>');
  });

  it('drops scripts, handlers, javascript: URLs, svg and unknown tags (keeping their text)', () => {
    const out = markup(
      '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">no</a>' +
        '<blink>kept</blink><svg><a href="https://e.x">svg</a></svg></p>' +
        '<img src="/media/a.png" onerror="x()"><noscript><p>ns</p></noscript><!-- c -->',
    );
    expect(out).toBe(
      '<div><p>Hi <a rel="noopener noreferrer nofollow">no</a>kept</p>' +
        '<img src="https://letters.example/media/a.png" loading="lazy" decoding="async" alt=""/></div>',
    );
  });

  it('answers plain data, as getStaticProps must', () => {
    const nodes = issueBodySafeNodesAtBuild('<p>One <em>two</em></p>', BASE);
    expect(JSON.parse(JSON.stringify(nodes))).toEqual(nodes);
    expect(nodes).toEqual([
      { tag: 'p', props: {}, children: ['One ', { tag: 'em', props: {}, children: ['two'] }] },
    ]);
  });
});
