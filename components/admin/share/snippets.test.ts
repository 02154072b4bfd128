// Unit tests: the embed options and the snippets the Share & embed page hands out.
import { describe, expect, it } from 'vitest';
import { embedPath, parseButtonText, parseTheme } from '../../embed/options';
import { escapeHtml, formSnippet, iframeSnippet, subscribeLink } from './snippets';

describe('embed options', () => {
  it('reads the theme and the button text, falling back to the defaults', () => {
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('neon')).toBe('auto');
    expect(parseTheme(null)).toBe('auto');
    expect(parseButtonText('  Join\n now ')).toBe('Join now');
    expect(parseButtonText('   ')).toBe('Subscribe');
    expect(parseButtonText('x'.repeat(60))).toHaveLength(40);
  });

  it('writes only the options that differ from the defaults', () => {
    expect(embedPath({ list: 'news', buttonText: 'Subscribe', theme: 'auto' })).toBe(
      '/embed/?list=news',
    );
    expect(embedPath({ list: 'news', buttonText: 'Join & go', theme: 'dark' })).toBe(
      '/embed/?list=news&button=Join+%26+go&theme=dark',
    );
  });
});

describe('snippets', () => {
  const options = { list: 'news', buttonText: '<b>Go</b>', theme: 'light' as const };

  it('links to the home page with the list ticked', () => {
    expect(subscribeLink('https://x.example', 'a-b')).toBe('https://x.example/?list=a-b');
  });

  it('escapes everything it puts into HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
    const form = formSnippet('https://p.example/functions/v1/subscribe', options, 'A "list"');
    expect(form).toContain('<button type="submit">&lt;b&gt;Go&lt;/b&gt;</button>');
    expect(form).toContain('A &quot;list&quot;');
    expect(form).toContain('action="https://p.example/functions/v1/subscribe" method="post"');
    expect(form).toContain('<input type="hidden" name="list" value="news">');
    expect(form).toContain('name="website"');
  });

  it('sizes the iframe only from the embed origin', () => {
    const html = iframeSnippet('https://news.example', options, 'News');
    expect(html).toContain(
      'src="https://news.example/embed/?list=news&amp;button=%3Cb%3EGo%3C%2Fb%3E&amp;theme=light"',
    );
    expect(html).toContain('var origin = "https://news.example";');
    expect(html).toContain('event.origin !== origin');
    expect(html).toContain('frames[i].contentWindow === event.source');
  });
});
