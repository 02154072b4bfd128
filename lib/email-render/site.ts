// The site's side of the shared renderer: the npm builds of marked, sanitize-html, juice and LiquidJS
// (pinned to the versions supabase/functions/_shared/deps.ts gives the edge functions).
import juice from 'juice';
import { Liquid, Tokenizer } from 'liquidjs';
import { Lexer, marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import type { RenderDeps } from './campaign.ts';

export const siteRenderDeps: RenderDeps = {
  marked,
  sanitizeHtml,
  juice,
  lex: (markdown) => Lexer.lex(markdown),
  Liquid: Liquid as unknown as RenderDeps['Liquid'],
  Tokenizer: Tokenizer as unknown as RenderDeps['Tokenizer'],
};
