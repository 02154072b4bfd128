// The budget check of issue 22 on made-up pages: budgets, known gaps that may not grow, and gaps
// that must go once their page is within budget; script URLs as the export writes them.
import { describe, expect, it } from 'vitest';
import { budgetProblems, inlineScripts, scriptSources, type PageJs } from './first-load-js';

const page = (route: string, kb: number): PageJs => ({ route, gzipBytes: kb * 1000, scripts: [] });

describe('budgetProblems', () => {
  it('holds public pages to their budget and leaves the team pages alone', () => {
    const pages = [page('/', 125), page('/archive/', 130.001), page('/admin/', 400)];
    expect(budgetProblems(pages, {})).toEqual([
      { route: '/archive/', gzipBytes: 130_001, limitKb: 130, problem: 'over budget' },
    ]);
  });

  it('lets a known gap be, but not grow, and asks for it to go once within budget', () => {
    const gaps = { '/': 128, '/embed/': 123 };
    expect(budgetProblems([page('/', 127.9), page('/embed/', 122)], gaps)).toEqual([]);
    expect(budgetProblems([page('/', 128.1), page('/embed/', 115)], gaps)).toEqual([
      { route: '/', gzipBytes: 128_100, limitKb: 128, problem: 'over its known gap' },
      {
        route: '/embed/',
        gzipBytes: 115_000,
        limitKb: 115,
        problem: 'within budget: remove its known gap',
      },
    ]);
  });
});

describe('scriptSources', () => {
  it('skips nomodule polyfills and keeps each script once', () => {
    const html =
      '<script src="/_next/a.js" nomodule=""></script><script src="/_next/static/chunks/pages/archive/%5Bslug%5D-1.js" defer></script>' +
      '<script src="/_next/static/chunks/pages/archive/%5Bslug%5D-1.js"></script><script>inline()</script>';
    expect(scriptSources(html)).toEqual(['/_next/static/chunks/pages/archive/%5Bslug%5D-1.js']);
  });
});

describe('inlineScripts', () => {
  it('keeps inline code and leaves data blocks, external and nomodule scripts out', () => {
    const html =
      '<script id="__NEXT_DATA__" type="application/json">{"a":1}</script>' +
      '<script type="application/ld+json">{}</script><script src="/x.js"></script>' +
      '<script nomodule="">old()</script><script>run()</script>' +
      '<script type="module">mod()</script><script type="text/javascript">js()</script>';
    expect(inlineScripts(html)).toEqual(['run()', 'mod()', 'js()']);
  });
});
