// Campaign rendering in the edge functions: the shared renderer (lib/email-render, also what the
// editor's preview runs) with the Deno builds of its libraries, and the compilations this isolate
// keeps between requests (lib/email-render/campaign-cache.ts).
import type { CompiledCampaign, RenderDeps } from '../../../lib/email-render/index.ts';
import type { CampaignSource, LayoutSettings } from '../../../lib/email-render/index.ts';
import { CompileCache, compileCampaignCached } from '../../../lib/email-render/campaign-cache.ts';
import { Lexer, Liquid, marked, sanitizeHtml, Tokenizer } from './deps.ts';
import juice from './juice.ts';

export const renderDeps: RenderDeps = {
  marked,
  sanitizeHtml,
  juice,
  lex: (markdown) => Lexer.lex(markdown),
  Liquid: Liquid as unknown as RenderDeps['Liquid'],
  Tokenizer: Tokenizer as unknown as RenderDeps['Tokenizer'],
};

/**
 * Campaigns and automation steps compiled in this isolate: a handful being sent at once, each
 * usually well under 100 KB of Markdown (at most 512 KB), so 8 entries or 2 million characters.
 */
export const compiledCampaigns = new CompileCache<CompiledCampaign>({
  entries: 8,
  chars: 2_000_000,
});

/**
 * A campaign or automation step compiled once per distinct input in this isolate: process-queue's
 * runs (500 messages each) and send-campaign's checks of the same campaign reuse it, so only Liquid
 * runs per recipient. The key is the input itself, so an edit compiles afresh.
 */
export function compiledOnce(source: CampaignSource, settings: LayoutSettings): CompiledCampaign {
  return compileCampaignCached(compiledCampaigns, renderDeps, source, settings);
}
