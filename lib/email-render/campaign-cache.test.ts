// The compile cache process-queue keeps between runs (issues 21 and 24): one compilation per input,
// a new one as soon as anything compiled changes (an edited draft, a live step, the branding), the
// same bytes as a fresh compilation for every reader, and a bounded size.
import { describe, expect, it, vi } from 'vitest';
import { CompileCache, compileCampaignCached, compileKey } from './campaign-cache';
import { compileCampaign, renderCampaign, type CompiledCampaign } from './campaign';
import { TemplateError } from './liquid-source';
import { recipientScope, type ScopeSubscriber } from './merge-tags';
import { siteRenderDeps } from './site';

const settings = { site_name: 'Maker News', postal_address: '1 Main St, Springfield' };
const source = {
  subject: 'Weekly for {{ subscriber.first_name | default: "you" }}',
  preheader: '',
  body_md: '## Hello {{ subscriber.name | default: "there" }}\n\nNews for {{ subscriber.email }}.',
};
const site = { name: 'Maker News', url: 'https://news.example.com' };
const links = {
  unsubscribe: 'https://news.example.com/unsubscribe/?token=u',
  preferences: 'https://news.example.com/preferences/?token=p',
  web: 'https://news.example.com/web/?token=w',
};
const scope = (subscriber: ScopeSubscriber) =>
  recipientScope({ subscriber, site, subject: source.subject, links });
const ada = { email: 'ada@example.com', name: 'Ada Lovelace', attributes: {} };
const bob = { email: 'bob@example.com', name: null, attributes: {} };

describe('CompileCache', () => {
  it('makes a value once per key and keeps the most recently used', () => {
    const cache = new CompileCache<string>({ entries: 2, chars: 1_000 });
    const make = vi.fn((key: string) => `value of ${key}`);
    expect(cache.get('a', () => make('a'))).toBe('value of a');
    expect(cache.get('a', () => make('a'))).toBe('value of a');
    expect(make).toHaveBeenCalledTimes(1);
    cache.get('b', () => make('b'));
    cache.get('a', () => make('a')); // a is now the most recently used
    cache.get('c', () => make('c')); // so b goes
    expect(cache.size).toBe(2);
    cache.get('a', () => make('a'));
    expect(make).toHaveBeenCalledTimes(3);
    cache.get('b', () => make('b'));
    expect(make).toHaveBeenCalledTimes(4);
    expect(cache.hits).toBe(3);
    expect(cache.misses).toBe(4);
  });

  it('bounds the characters kept, but always keeps the newest entry', () => {
    const cache = new CompileCache<number>({ entries: 10, chars: 10 });
    cache.get('x'.repeat(6), () => 1);
    cache.get('y'.repeat(6), () => 2); // 12 characters: the first goes
    expect(cache.size).toBe(1);
    cache.get('z'.repeat(50), () => 3); // larger than the bound: kept alone
    expect(cache.size).toBe(1);
    expect(cache.get('z'.repeat(50), () => 4)).toBe(3);
  });

  it('keeps nothing when making the value throws', () => {
    const cache = new CompileCache<number>({ entries: 2, chars: 100 });
    expect(() =>
      cache.get('bad', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(cache.size).toBe(0);
    expect(cache.get('bad', () => 1)).toBe(1);
  });
});

describe('compileCampaignCached', () => {
  it('compiles a campaign once and renders every reader as a fresh compilation does', () => {
    const cache = new CompileCache<CompiledCampaign>({ entries: 4, chars: 100_000 });
    const first = compileCampaignCached(cache, siteRenderDeps, source, settings);
    // Rendering many readers with the shared compilation changes nothing in it.
    const shared = [ada, bob, ada].map((s) => renderCampaign(first, scope(s)));
    const again = compileCampaignCached(cache, siteRenderDeps, { ...source }, { ...settings });
    expect(again).toBe(first);
    const fresh = compileCampaign(siteRenderDeps, source, settings);
    for (const [i, s] of [ada, bob, ada].entries()) {
      const expected = renderCampaign(fresh, scope(s));
      expect(shared[i]!.html).toBe(expected.html);
      expect(shared[i]!.text).toBe(expected.text);
      expect(shared[i]!.subject).toBe(expected.subject);
    }
    expect(shared[0]!.html).toContain('Hello Ada Lovelace');
    expect(shared[1]!.html).toContain('Hello there');
  });

  it('compiles again when the draft, the subject or the branding changed', () => {
    const cache = new CompileCache<CompiledCampaign>({ entries: 8, chars: 100_000 });
    const first = compileCampaignCached(cache, siteRenderDeps, source, settings);
    const edited = compileCampaignCached(
      cache,
      siteRenderDeps,
      { ...source, body_md: `${source.body_md}\n\nA paragraph added while paused.` },
      settings,
    );
    expect(edited).not.toBe(first);
    expect(renderCampaign(edited, scope(ada)).html).toContain('A paragraph added while paused.');
    expect(renderCampaign(first, scope(ada)).html).not.toContain('added while paused');
    const retitled = compileCampaignCached(
      cache,
      siteRenderDeps,
      { ...source, subject: 'Monthly' },
      settings,
    );
    expect(renderCampaign(retitled, scope(ada)).subject).toBe('Monthly');
    const rebranded = compileCampaignCached(cache, siteRenderDeps, source, {
      ...settings,
      accent_color: '#aa0000',
    });
    expect(rebranded).not.toBe(first);
    expect(renderCampaign(rebranded, scope(ada)).html.toLowerCase()).toContain('#aa0000');
    expect(compileCampaignCached(cache, siteRenderDeps, source, settings)).toBe(first);
  });

  it('keys every compiled input apart', () => {
    const keys = new Set([
      compileKey(source, settings),
      compileKey({ ...source, preheader: 'x' }, settings),
      compileKey(source, { ...settings, logo_url: 'https://x.example/logo.png' }),
      compileKey(source, { ...settings, postal_address: 'elsewhere' }),
      compileKey(source, { ...settings, site_name: 'Other' }),
      // A field's text moved into its neighbour is another key (JSON keeps the boundaries).
      compileKey({ ...source, subject: `${source.subject}"`, preheader: '' }, settings),
    ]);
    expect(keys.size).toBe(6);
  });

  it('throws a template error every time and keeps nothing for it', () => {
    const cache = new CompileCache<CompiledCampaign>({ entries: 4, chars: 100_000 });
    const broken = { ...source, body_md: 'Hi {{ subscriber.name ' };
    for (let i = 0; i < 2; i++)
      expect(() => compileCampaignCached(cache, siteRenderDeps, broken, settings)).toThrow(
        TemplateError,
      );
    expect(cache.size).toBe(0);
  });
});
