// Critical CSS (lib/build/critical-css.ts) on a small exported site in a temporary folder: the rules
// a page uses are inlined, its stylesheet no longer blocks the first paint, a browser without
// JavaScript still gets the whole stylesheet, and the file on disk keeps every rule.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inlineCriticalCss } from './critical-css';

const CSS =
  '.hero{color:red}.unused-dialog{color:blue}@media (min-width:600px){.hero{margin:2rem}}';
const page = (body: string) =>
  '<!DOCTYPE html><html><head><link rel="preload" href="/_next/static/css/a.css" as="style"/>' +
  '<link rel="stylesheet" href="/_next/static/css/a.css" data-n-p=""/></head>' +
  `<body>${body}</body></html>`;

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'critical-css-'));
  mkdirSync(join(out, '_next/static/css'), { recursive: true });
  mkdirSync(join(out, 'archive'));
  writeFileSync(join(out, '_next/static/css/a.css'), CSS);
  writeFileSync(join(out, 'index.html'), page('<h1 class="hero">Letters</h1>'));
  writeFileSync(join(out, 'archive/index.html'), page('<p>No styled element here</p>'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

describe('inlineCriticalCss', () => {
  it('inlines the rules each page uses and loads the stylesheet without blocking', async () => {
    expect(await inlineCriticalCss(out)).toBe(2);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const inline = html.match(/<style>(.*?)<\/style>/)?.[1] ?? '';
    expect(inline).toContain('.hero{color:red}');
    expect(inline).toContain('@media (min-width:600px){.hero{margin:2rem}}');
    expect(inline).not.toContain('unused-dialog');
    // The only blocking way to the stylesheet is inside <noscript>.
    const outsideNoscript = html.replace(/<noscript>.*?<\/noscript>/g, '');
    expect(outsideNoscript).toMatch(
      /<link rel="stylesheet" href="\/_next\/static\/css\/a.css"[^>]*media="print" onload="this.media='all'"/,
    );
    expect(html).toMatch(/<noscript><link rel="stylesheet" href="\/_next\/static\/css\/a.css"/);
    // The stylesheet itself is untouched: later elements need its other rules.
    expect(readFileSync(join(out, '_next/static/css/a.css'), 'utf8')).toBe(CSS);
  });

  it('inlines nothing a page does not use', async () => {
    await inlineCriticalCss(out);
    const html = readFileSync(join(out, 'archive/index.html'), 'utf8');
    expect(html).not.toContain('.hero');
  });
});
