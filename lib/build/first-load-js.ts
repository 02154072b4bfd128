// First-load JavaScript of every exported page, read from out/: the scripts each page's HTML makes
// a modern browser download or run (every <script src> of the site and every inline script,
// `nomodule` polyfills excluded), gzip-compressed as a host serves them. Used by the budget check (tests/e2e/instant.spec.ts,
// scripts/first-load-js.ts) and the Lighthouse benchmark (bench/lighthouse.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageJs {
  /** `/`, `/embed/`, `/404.html`… as served. */
  route: string;
  /** gzip bytes of every script the page loads. */
  gzipBytes: number;
  scripts: string[];
}

/** Budgets of issue 22, in gzip KB (1 KB = 1000 bytes, as `next build` prints them). */
export const PUBLIC_BUDGET_KB = { '/': 125, '/embed/': 115, other: 130 } as const;

/** Routes held to the public budgets: everything but the team's pages and sign-in. */
export function isPublicRoute(route: string): boolean {
  return !/^\/(admin|login|auth)\//.test(route);
}

export function budgetKb(route: string): number {
  if (route === '/') return PUBLIC_BUDGET_KB['/'];
  if (route === '/embed/') return PUBLIC_BUDGET_KB['/embed/'];
  return PUBLIC_BUDGET_KB.other;
}

/** `src` of every <script> a modern browser runs: `nomodule` ones only run where modules do not. */
export function scriptSources(html: string): string[] {
  const out: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = match[1] ?? '';
    if (/\snomodule\b/i.test(attrs)) continue;
    const src = /\ssrc="([^"]+)"/i.exec(attrs)?.[1];
    if (src && !out.includes(src)) out.push(src);
  }
  return out;
}

/**
 * The code of every inline script a browser runs (no `src`, and a JavaScript type or none): the
 * embed page's is its only script. Data blocks (`type="application/json"`, Next's __NEXT_DATA__)
 * are not code and are left out.
 */
export function inlineScripts(html: string): string[] {
  const out: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = match[1] ?? '';
    const type = /\stype="([^"]*)"/i.exec(attrs)?.[1]?.toLowerCase();
    const code = type === undefined || type === 'module' || /javascript|ecmascript/.test(type);
    if (code && !/\ssrc=/i.test(attrs) && !/\snomodule\b/i.test(attrs) && match[2]!.trim()) {
      out.push(match[2]!);
    }
  }
  return out;
}

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '_next') out.push(...htmlFiles(path));
    } else if (entry.name.endsWith('.html')) {
      out.push(path);
    }
  }
  return out;
}

function routeOf(outDir: string, file: string): string {
  const rel = relative(outDir, file).split(sep).join('/');
  if (rel === 'index.html') return '/';
  return rel.endsWith('/index.html') ? `/${rel.slice(0, -'index.html'.length)}` : `/${rel}`;
}

/** Every page of an export with the gzip size of its first-load scripts, largest first. */
export function firstLoadJs(outDir = 'out'): PageJs[] {
  const sizes = new Map<string, number>();
  const gz = (src: string): number => {
    let size = sizes.get(src);
    if (size === undefined) {
      // As a host maps the URL to a file: `/archive/%5Bslug%5D-….js` is `archive/[slug]-….js`.
      const path = join(outDir, decodeURIComponent(src.split('?')[0]!).replace(/^\//, ''));
      size = statSync(path).isFile() ? gzipSync(readFileSync(path), { level: 9 }).length : 0;
      sizes.set(src, size);
    }
    return size;
  };
  return htmlFiles(outDir)
    .map((file) => {
      const html = readFileSync(file, 'utf8');
      // The site's own scripts (every `src` on its origin), and those written into the page.
      const scripts = scriptSources(html).filter((src) => /^\/(?!\/)/.test(src));
      const inline = inlineScripts(html);
      return {
        route: routeOf(outDir, file),
        scripts: [...scripts, ...inline.map((_, i) => `(inline script ${i + 1})`)],
        gzipBytes:
          scripts.reduce((sum, src) => sum + gz(src), 0) +
          inline.reduce((sum, code) => sum + gzipSync(code, { level: 9 }).length, 0),
      };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes || a.route.localeCompare(b.route));
}

/** Public pages over their budget, with how much. */
export function overBudget(pages: PageJs[]): Array<PageJs & { budgetKb: number }> {
  return pages
    .filter((page) => isPublicRoute(page.route))
    .map((page) => ({ ...page, budgetKb: budgetKb(page.route) }))
    .filter((page) => page.gzipBytes > page.budgetKb * 1000);
}

/**
 * Public pages not yet within their budget, each held just above what it weighs now (gzip KB):
 * the check fails when one grows past that, and when one comes within its budget (then its line
 * here goes). None today: `/embed/` ships no React (its own script, ~5.5 KB), and `/` fits its
 * 125 KB with the signup request, the error state and lucide's Icon component loaded only where
 * used. React 19's DOM client (69 KB) and Next's pages runtime (38 KB) with the webpack runtime and
 * build manifest are ~110 KB of every page that hydrates, so `/` has ~15 KB for its own code.
 */
export const KNOWN_GAPS_KB: Readonly<Record<string, number>> = {};

export interface BudgetProblem {
  route: string;
  gzipBytes: number;
  limitKb: number;
  problem: 'over budget' | 'over its known gap' | 'within budget: remove its known gap';
}

/** What the budget check fails on: issue 22's budgets, and the known gaps no larger than today. */
export function budgetProblems(
  pages: PageJs[],
  gaps: Readonly<Record<string, number>> = KNOWN_GAPS_KB,
): BudgetProblem[] {
  const problems: BudgetProblem[] = [];
  for (const page of pages.filter((p) => isPublicRoute(p.route))) {
    const { route, gzipBytes } = page;
    const budget = budgetKb(route);
    const gap = gaps[route];
    if (gap === undefined) {
      if (gzipBytes > budget * 1000) {
        problems.push({ route, gzipBytes, limitKb: budget, problem: 'over budget' });
      }
    } else if (gzipBytes > gap * 1000) {
      problems.push({ route, gzipBytes, limitKb: gap, problem: 'over its known gap' });
    } else if (gzipBytes <= budget * 1000) {
      problems.push({
        route,
        gzipBytes,
        limitKb: budget,
        problem: 'within budget: remove its known gap',
      });
    }
  }
  return problems;
}
