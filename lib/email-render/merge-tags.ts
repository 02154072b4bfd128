// Merge tags (issue 21, SPEC §10): the Liquid variables a campaign may use, the sandboxed engine
// every runtime renders them with, and the scopes for a recipient, a sample reader and nobody.
// Import-free, like the rest of lib/email-render: Deno and the browser each pass their own LiquidJS
// (the same pinned version: supabase/functions/_shared/deps.ts and package.json).

/** A rendered message may be at most 1 MB (SPEC §10). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The part of LiquidJS's Liquid class this module uses (a structural type: no import). */
export interface LiquidEngine {
  parse(source: string): unknown[];
  renderSync(template: unknown[], scope: object): unknown;
  registerFilter(name: string, filter: (value: unknown) => unknown): void;
  globalVariableSegmentsSync(template: unknown[]): (string | number | unknown[])[][];
  tags: Record<string, unknown>;
  options: object;
}

export type LiquidClass = new (options: Record<string, unknown>) => LiquidEngine;

/** One variable the editor offers. */
export interface MergeTag {
  /** What goes between `{{ }}`. */
  tag: string;
  label: string;
}

export const MERGE_TAGS: MergeTag[] = [
  { tag: 'subscriber.name | default: "there"', label: 'Name (or "there")' },
  { tag: 'subscriber.first_name | default: "friend"', label: 'First name' },
  { tag: 'subscriber.email', label: 'Email address' },
  { tag: 'subscriber.attributes.company', label: 'An attribute (here: company)' },
  { tag: 'site.name', label: 'Site name' },
  { tag: 'campaign.subject', label: 'Subject' },
  { tag: 'unsubscribe_url', label: 'Unsubscribe link' },
  { tag: 'preferences_url', label: 'Preferences link' },
  { tag: 'web_url', label: '"View in browser" link' },
  { tag: 'waitlist.position', label: 'Waitlist position' },
  { tag: 'waitlist.referral_url', label: 'Waitlist referral link' },
];

/** The first segment of every variable Postbox provides; anything else is unknown (a warning). */
const KNOWN_ROOTS: Record<string, readonly string[] | null> = {
  subscriber: ['name', 'first_name', 'email', 'attributes'],
  site: ['name', 'url'],
  campaign: ['subject'],
  unsubscribe_url: null,
  preferences_url: null,
  web_url: null,
  waitlist: ['position', 'total', 'referrals', 'referral_url', 'list', 'place_url'],
};

/**
 * The engine: HTML-escaping output (`html`) or plain (`text`, subject, preheader), with no file
 * access (include, render and layout removed; any file read fails), bounded memory (which bounds
 * loops and ranges), bounded time and template size.
 */
export function createLiquid(Liquid: LiquidClass, mode: 'html' | 'text'): LiquidEngine {
  const noFiles = () => {
    throw new Error('templates cannot read files');
  };
  const engine = new Liquid({
    ...(mode === 'html' ? { outputEscape: 'escape' } : {}),
    fs: {
      exists: () => Promise.resolve(false),
      existsSync: () => false,
      readFile: noFiles,
      readFileSync: noFiles,
      resolve: noFiles,
      contains: () => false,
      sep: '/',
    },
    relativeReference: false,
    dynamicPartials: false,
    strictFilters: true,
    // A value's own fields only: `subscriber.attributes.constructor` is nothing, not a function.
    ownPropertyOnly: true,
    // Bounded: 512 KB of Markdown makes under 2 MB of template; each allocation (strings, arrays,
    // ranges, loop iterations) counts against 10 million units; 1 s of rendering at most.
    parseLimit: 4_000_000,
    memoryLimit: 10_000_000,
    renderLimit: 1_000,
    cache: false,
  });
  for (const tag of ['include', 'render', 'layout', 'block']) delete engine.tags[tag];
  return engine;
}

/** A subscriber as the send reads them. */
export interface ScopeSubscriber {
  email: string;
  name: string | null;
  attributes: Record<string, unknown> | null;
}

export interface ScopeLinks {
  unsubscribe: string;
  preferences: string;
  web: string;
}

export interface ScopeWaitlist {
  list: string;
  position: number | null;
  total: number;
  referrals: number;
  referral_url: string;
  /** The live place page (an automation's welcome; campaigns leave it out). */
  place_url?: string;
}

export interface MergeScope {
  subscriber: {
    name?: string;
    first_name?: string;
    email?: string;
    attributes: Record<string, unknown>;
  };
  site: { name: string; url: string };
  campaign: { subject: string };
  unsubscribe_url: string;
  preferences_url: string;
  web_url: string;
  waitlist?: ScopeWaitlist;
}

/** The first word of a name (empty for no name: `default` then applies). */
export function firstName(name: string | null): string {
  return (name ?? '').trim().split(/\s+/)[0] ?? '';
}

/**
 * A recipient's scope. A missing name or attribute is left out (not ''), so `default` applies:
 * Liquid's default replaces nil, false and '' alike.
 */
export function recipientScope(parts: {
  subscriber: ScopeSubscriber | null;
  site: { name: string; url: string };
  subject: string;
  links: ScopeLinks | null;
  waitlist?: ScopeWaitlist;
}): MergeScope {
  const s = parts.subscriber;
  const name = s?.name?.trim() || undefined;
  return {
    subscriber: {
      ...(name ? { name, first_name: firstName(name) } : {}),
      ...(s ? { email: s.email } : {}),
      attributes:
        s?.attributes && typeof s.attributes === 'object' && !Array.isArray(s.attributes)
          ? s.attributes
          : {},
    },
    site: parts.site,
    campaign: { subject: parts.subject },
    unsubscribe_url: parts.links?.unsubscribe ?? '',
    preferences_url: parts.links?.preferences ?? '',
    web_url: parts.links?.web ?? '',
    ...(parts.waitlist ? { waitlist: parts.waitlist } : {}),
  };
}

/**
 * The reader the editor's preview and a test send show: a made-up name and attribute, and the
 * address the test goes to (the preview: the signed-in member's), so a test to oneself is the
 * preview byte for byte but for the links' tokens.
 */
export function sampleSubscriber(email: string): ScopeSubscriber {
  return { email, name: 'Ada Lovelace', attributes: { company: 'Analytical Engines Ltd' } };
}

/** A waitlist standing for previews and tests (no real reader has one). */
export function sampleWaitlist(siteUrl: string): ScopeWaitlist {
  return {
    list: 'waitlist',
    position: 42,
    total: 1000,
    referrals: 3,
    referral_url: `${siteUrl}/?ref=SAMPLE`,
  };
}

/** Variables the template reads that Postbox does not provide ("subscriber.nmae"), deduplicated. */
export function unknownVariables(
  engine: LiquidEngine,
  template: unknown[],
  extra: Record<string, readonly string[] | null> = {},
): string[] {
  const unknown = new Set<string>();
  for (const segments of engine.globalVariableSegmentsSync(template)) {
    const [root, field] = segments;
    if (typeof root !== 'string') continue;
    const fields = Object.hasOwn(extra, root) ? extra[root] : KNOWN_ROOTS[root];
    const known =
      fields === undefined
        ? false
        : fields === null || typeof field !== 'string' || fields.includes(field);
    if (!known)
      unknown.add(
        segments
          .filter((s): s is string => typeof s === 'string')
          .slice(0, 2)
          .join('.'),
      );
  }
  return [...unknown];
}
