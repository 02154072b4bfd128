// Lighthouse benchmark (issue 22): the exported site (out/, built by `npx tsx scripts/build-site.ts
// --emulator`) served statically against a seeded in-memory emulator, audited by the pinned
// Lighthouse (package.json) in Chromium (CHROME_PATH, default /usr/bin/chromium) with its mobile
// preset and simulated throttling, five runs per page, medians reported. Writes the scores, the
// machine's benchmarkIndex and every page's first-load JS to bench/results/lighthouse/detail.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { startEmulator } from '../emulator/index.js';
import { PUBLISHABLE_KEY, SERVICE_ROLE_KEY } from '../emulator/keys.js';
import { firstLoadJs } from '../lib/build/first-load-js.js';
import { renderCampaignPreviewHtml } from '../lib/campaign-preview.js';
import { E2E_API_PORT } from '../tests/e2e/ports.js';
import { summarize } from './stats.js';
import type { Benchmark, GoalResult, Measurement } from './types.js';

const RUNS = 5;
// The API port out/ was built for: the e2e one (build-site.ts --emulator) unless told otherwise.
const API_PORT = Number(process.env.POSTBOX_BENCH_API_PORT ?? E2E_API_PORT);
const SUPABASE_URL = `http://127.0.0.1:${API_PORT}`;
// The static server's port; another one when a second checkout benches at the same time.
const SITE_PORT = Number(process.env.POSTBOX_BENCH_SITE_PORT ?? 55390);
const SITE = `http://127.0.0.1:${SITE_PORT}`;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  FCP: 'first-contentful-paint',
  SI: 'speed-index',
} as const;

interface PageRun {
  scores: Record<string, number>;
  metrics: Record<string, number>;
  cls: number;
  benchmarkIndex: number;
  /** What the simulated LCP is made of: the element, its phases and the unthrottled timeline. */
  lcp: {
    element: string | null;
    phases: Record<string, number>;
    observed: { fcp: number; lcp: number; domContentLoaded: number; load: number };
  };
  /** The machine's 1-minute load average when the run started (the machine is shared). */
  load: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

function builtForEmulator(): boolean {
  const dir = join('out', '_next', 'static', 'chunks');
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some(
    (file) => file.endsWith('.js') && readFileSync(join(dir, file), 'utf8').includes(SUPABASE_URL),
  );
}

async function service(path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${SUPABASE_URL}${path}`, {
    ...init,
    headers: {
      apikey: SERVICE_ROLE_KEY,
      Authorization: `Bearer ${SERVICE_ROLE_KEY}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A sent, archived issue for the issue page; returns its slug. */
async function publishIssue(): Promise<string> {
  const slug = 'lighthouse-issue';
  const body = `# A week of letters\n\n${'Short, useful paragraphs about the week. '.repeat(40)}`;
  const [row] = (await service('/rest/v1/campaigns', {
    method: 'POST',
    body: JSON.stringify({
      name: 'A week of letters',
      subject: 'A week of letters',
      preheader: 'What happened, briefly',
      body_md: body,
      body_html: renderCampaignPreviewHtml(body),
      archive: true,
      slug,
    }),
  })) as Array<{ id: string }>;
  for (const status of ['sending', 'sent']) {
    await service(`/rest/v1/campaigns?id=eq.${row!.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ status }),
    });
  }
  return slug;
}

/** An owner with a password, signed in: the session supabase-js keeps in localStorage. */
async function ownerSession(): Promise<unknown> {
  const email = 'lighthouse-owner@example.com';
  const password = 'lighthouse-password-1';
  const user = (await service('/auth/v1/admin/users', {
    method: 'POST',
    body: JSON.stringify({ email, password, email_confirm: true }),
  })) as { id: string };
  await service('/rest/v1/members', {
    method: 'POST',
    body: JSON.stringify({ user_id: user.id, email, role: 'owner' }),
  });
  const res = await fetch(`${SUPABASE_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: PUBLISHABLE_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in → ${res.status}: ${await res.text()}`);
  const session = (await res.json()) as { expires_in: number };
  return { ...session, expires_at: Math.floor(Date.now() / 1000) + session.expires_in };
}

function serveOut(): Promise<ChildProcess> {
  const child = spawn(
    'npx',
    ['tsx', 'scripts/serve-static.ts', '--dir', 'out', '--port', String(SITE_PORT)],
    // Its own process group: npx starts tsx, which starts node; stopping the group stops them all.
    { stdio: 'ignore', detached: true },
  );
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = async () => {
      try {
        if ((await fetch(SITE)).ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() - started > 30_000) reject(new Error('static server did not start'));
      else setTimeout(() => void poll(), 250);
    };
    void poll();
  });
}

async function audit(port: number, path: string, keepStorage: boolean): Promise<PageRun> {
  const load = loadavg()[0]!;
  const result = await lighthouse(`${SITE}${path}`, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // The admin pages need the session put in localStorage before the runs.
    disableStorageReset: keepStorage,
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${path}`);
  if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`);
  const scores: Record<string, number> = {};
  for (const id of CATEGORIES) scores[id] = Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metrics: Record<string, number> = {};
  for (const [name, id] of Object.entries(METRICS)) {
    metrics[name] = lhr.audits[id]?.numericValue ?? NaN;
  }
  // The LCP element and its phases (TTFB, load delay, load time, render delay), and when the
  // unthrottled page painted and ran its scripts: a render delay made of script time means the
  // element was painted (or painted again) only after the scripts ran.
  type Items = Array<{ items?: Array<Record<string, unknown>> }>;
  const lcpItems = (lhr.audits['largest-contentful-paint-element']?.details as { items?: Items })
    ?.items;
  const node = lcpItems?.[0]?.items?.[0]?.node as { snippet?: string } | undefined;
  const phases = Object.fromEntries(
    (lcpItems?.[1]?.items ?? []).map((i) => [String(i.phase), Math.round(Number(i.timing))]),
  );
  const observed = (
    lhr.audits.metrics?.details as { items?: Array<Record<string, number>> } | undefined
  )?.items?.[0];
  return {
    scores,
    metrics,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lcp: {
      element: node?.snippet ?? null,
      phases,
      observed: {
        fcp: Math.round(observed?.observedFirstContentfulPaint ?? NaN),
        lcp: Math.round(observed?.observedLargestContentfulPaint ?? NaN),
        domContentLoaded: Math.round(observed?.observedDomContentLoaded ?? NaN),
        load: Math.round(observed?.observedLoad ?? NaN),
      },
    },
    load,
  };
}

export const lighthouseBench: Benchmark = {
  name: 'lighthouse',
  description:
    'Lighthouse 12 (mobile, simulated throttling), median of 5 runs per page, on the exported site',
  defaults: { samples: RUNS, warmup: 0 },
  skip: () =>
    builtForEmulator()
      ? null
      : 'out/ is not built for the e2e emulator: run `npx tsx scripts/build-site.ts --emulator` first',
  async run({ samples, log }) {
    const emulator = await startEmulator({
      memory: true,
      databaseUrl: '',
      port: API_PORT,
      dbPort: null,
      mailWebPort: 0,
      mailSmtpPort: 0,
      log: () => {},
    });
    const server = await serveOut();
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    });
    const pages: Record<string, PageRun[]> = {};
    try {
      const slug = await publishIssue();
      // The seed's sample issue, pre-rendered by the build (body in the HTML), and an issue published
      // after the build, which the browser renders at ?slug=.
      const publicPages = ['/', '/archive/', '/archive/welcome/', `/archive/issue/?slug=${slug}`];
      const adminPages = ['/admin/', '/admin/subscribers/'];
      for (const path of publicPages) {
        pages[path] = [];
        for (let i = 0; i < samples; i++) {
          pages[path].push(await audit(chrome.port, path, false));
          log(`${path} run ${i + 1}: performance ${pages[path].at(-1)!.scores.performance}`);
        }
      }
      // Sign in once: the session goes into localStorage as supabase-js keeps it.
      const session = await ownerSession();
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const tab = await browser.newPage();
      await tab.goto(`${SITE}/404.html`);
      await tab.evaluate(
        (value) => localStorage.setItem('sb-127-auth-token', value),
        JSON.stringify(session),
      );
      await tab.close();
      await browser.disconnect();
      for (const path of adminPages) {
        pages[path] = [];
        for (let i = 0; i < samples; i++) {
          pages[path].push(await audit(chrome.port, path, true));
          log(`${path} run ${i + 1}: performance ${pages[path].at(-1)!.scores.performance}`);
        }
      }
    } finally {
      await chrome.kill();
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
      await emulator.stop();
    }

    const js = Object.fromEntries(firstLoadJs('out').map((p) => [p.route, p.gzipBytes]));
    const routeOf = (path: string) => path.split('?')[0]!;
    const summary = Object.fromEntries(
      Object.entries(pages).map(([path, runs]) => [
        path,
        {
          scores: Object.fromEntries(
            CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]!))]),
          ),
          metricsMs: Object.fromEntries(
            Object.keys(METRICS).map((m) => [
              m,
              Math.round(median(runs.map((r) => r.metrics[m]!))),
            ]),
          ),
          cls: median(runs.map((r) => r.cls)),
          benchmarkIndex: median(runs.map((r) => r.benchmarkIndex)),
          loadAverage: median(runs.map((r) => r.load)),
          firstLoadJsGzipBytes: js[routeOf(path)] ?? null,
          runs,
        },
      ]),
    );
    const measurements: Measurement[] = Object.entries(pages).flatMap(([path, runs]) =>
      Object.keys(METRICS).map((metric) => ({
        case: path,
        side: metric,
        stats: summarize(runs.map((r) => r.metrics[metric]!)),
        error: null,
      })),
    );
    const goals: GoalResult[] = Object.entries(summary).map(([path, s]) => {
      const admin = path.startsWith('/admin/');
      const met = admin
        ? s.scores.performance! >= 90
        : s.scores.performance! >= 95 &&
          s.scores.accessibility === 100 &&
          s.scores['best-practices']! >= 95 &&
          s.scores.seo === 100 &&
          s.metricsMs.LCP! <= 2000 &&
          s.metricsMs.TBT! <= 150;
      return {
        goal: admin
          ? `${path}: performance ≥ 90`
          : `${path}: performance ≥ 95, accessibility 100, best practices ≥ 95, SEO 100, LCP ≤ 2.0 s, TBT ≤ 150 ms`,
        met,
        detail:
          `scores ${CATEGORIES.map((c) => s.scores[c]).join('/')}, LCP ${s.metricsMs.LCP} ms, ` +
          `TBT ${s.metricsMs.TBT} ms, CLS ${s.cls.toFixed(3)}, benchmarkIndex ${s.benchmarkIndex}, ` +
          `load ${s.loadAverage.toFixed(1)}, ` +
          `first-load JS ${((s.firstLoadJsGzipBytes ?? 0) / 1000).toFixed(1)} KB`,
      };
    });
    // A folder of its own: the README's results table reads every JSON file in results/ itself.
    const dir = new URL('./results/lighthouse/', import.meta.url);
    await mkdir(dir, { recursive: true });
    await writeFile(
      new URL('detail.json', dir),
      JSON.stringify(
        {
          lighthouse: JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8'))
            .version,
          chrome: process.env.CHROME_PATH ?? '/usr/bin/chromium',
          runsPerPage: samples,
          date: new Date().toISOString(),
          pages: summary,
          firstLoadJsGzipBytes: js,
        },
        null,
        2,
      ) + '\n',
    );
    return {
      backend: 'pglite',
      measurements,
      comparisons: [],
      goals,
      notes: [
        'Medians of each page’s runs; scores 0–100; full runs in bench/results/lighthouse/detail.json.',
        `benchmarkIndex (median over all runs): ${median(Object.values(summary).map((s) => s.benchmarkIndex))}`,
        'Admin pages run signed in as an owner (session placed in localStorage, storage not reset).',
      ],
    };
  },
};
