// Compiled campaigns kept between process-queue runs (issues 21 and 24). A run sends at most 500
// messages, so a 10,000-recipient campaign is sent by 20 or more runs, each of which used to compile
// it again (Markdown, sanitising, CSS inlining, Liquid parsing: tens of milliseconds of CPU before
// the first message). An edge function's isolate serves one request after another (hosted Supabase
// and the emulator alike), so a module-level cache lets every run after the first go straight to
// the per-recipient Liquid render.
//
// The key is the compiled input itself (templates and layout settings), not an id: an edited draft,
// an automation step changed while live, or a new logo or accent colour is a new key, so a stale
// compilation can never be used. Bounded: a few entries and a total size of source text, least
// recently used out first, so a process's memory stays flat however many campaigns it sends.
// Import-free but for siblings (see merge-tags.ts).
import {
  compileCampaign,
  type CampaignSource,
  type CompiledCampaign,
  type RenderDeps,
} from './campaign.ts';
import type { LayoutSettings } from './layout.ts';

export interface CacheLimits {
  /** At most this many entries. */
  entries: number;
  /** At most this many characters of keys in all (one entry larger than this is still kept alone). */
  chars: number;
}

/** A least-recently-used map of values made by `make`, keyed by strings. */
export class CompileCache<T> {
  private map = new Map<string, T>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(private limits: CacheLimits) {}

  get size(): number {
    return this.map.size;
  }

  /**
   * The value for `key`, made (and kept) on the first call; a `make` that throws keeps nothing,
   * so a template with an error is reported every time it is asked for.
   */
  get(key: string, make: () => T): T {
    const found = this.map.get(key);
    if (found !== undefined) {
      this.hits += 1;
      // Most recently used last: Map iterates in insertion order.
      this.map.delete(key);
      this.map.set(key, found);
      return found;
    }
    this.misses += 1;
    const value = make();
    this.map.set(key, value);
    this.chars += key.length;
    for (const [oldest] of this.map) {
      if (this.map.size <= 1) break;
      if (this.map.size <= this.limits.entries && this.chars <= this.limits.chars) break;
      this.map.delete(oldest);
      this.chars -= oldest.length;
    }
    return value;
  }

  clear(): void {
    this.map.clear();
    this.chars = 0;
  }
}

/** The key of a compilation: every input, in a fixed order (JSON, so no two inputs share one). */
export function compileKey(source: CampaignSource, settings: LayoutSettings): string {
  return JSON.stringify([
    source.subject,
    source.preheader,
    source.body_md,
    settings.site_name,
    settings.postal_address,
    settings.accent_color ?? null,
    settings.logo_url ?? null,
  ]);
}

/**
 * compileCampaign once per distinct input kept in `cache`. A compiled campaign is never changed by
 * rendering (renderCampaign only reads it, synchronously), so one can serve every recipient of
 * every run. Throws TemplateError as compileCampaign does, and then keeps nothing.
 */
export function compileCampaignCached(
  cache: CompileCache<CompiledCampaign>,
  deps: RenderDeps,
  source: CampaignSource,
  settings: LayoutSettings,
): CompiledCampaign {
  return cache.get(compileKey(source, settings), () => compileCampaign(deps, source, settings));
}
