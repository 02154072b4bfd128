// Campaign rendering in the edge functions: the shared renderer (lib/email-render, also what the
// editor's preview runs) with the Deno builds of its libraries.
import type { RenderDeps } from '../../../lib/email-render/index.ts';
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
