// Campaign bodies (SPEC §5): Markdown → sanitised HTML (what campaigns.body_html and the archive
// hold) and a plain-text part derived from the same Markdown. Pure: no Deno APIs, no I/O.
// The HTML rules live in lib/campaign-render.ts, shared with the editor's preview in the browser.
import { renderCampaignHtmlWith } from '../../../lib/campaign-render.ts';
import { Lexer, marked, sanitizeHtml, type Token, type Tokens } from './deps.ts';

/** Markdown (raw HTML allowed, then sanitised) → HTML without scripts, handlers or unsafe URLs. */
export function renderCampaignHtml(markdown: string): string {
  return renderCampaignHtmlWith({ marked, sanitizeHtml }, markdown);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!);
}

/** Raw HTML in Markdown contributes its text only (tags, scripts and styles dropped). */
function htmlText(html: string): string {
  return decodeEntities(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }));
}

function safeUrl(href: string): string | null {
  return /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : null;
}

function inlineText(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'link': {
        const link = token as Tokens.Link;
        const label = inlineText(link.tokens);
        const url = safeUrl(link.href);
        out += url && url !== label ? `${label} (${url})` : label;
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        out += image.text ? `[${image.text}]` : '';
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'html':
        out += htmlText((token as Tokens.HTML).text);
        break;
      case 'codespan':
        out += decodeEntities((token as Tokens.Codespan).text);
        break;
      default: {
        const withTokens = token as { tokens?: Token[]; text?: string };
        out += withTokens.tokens
          ? inlineText(withTokens.tokens)
          : decodeEntities(withTokens.text ?? '');
      }
    }
  }
  return out;
}

function blockText(tokens: Token[], indent = ''): string[] {
  const blocks: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
        break;
      case 'heading': {
        const text = inlineText((token as Tokens.Heading).tokens);
        blocks.push(
          (token as Tokens.Heading).depth <= 2 ? `${text}\n${'='.repeat(text.length)}` : text,
        );
        break;
      }
      case 'paragraph':
      case 'text':
        blocks.push(
          inlineText((token as Tokens.Paragraph).tokens ?? []) || (token as Tokens.Text).text,
        );
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        const items = list.items.map((item, i) => {
          const marker = list.ordered ? `${start + i}. ` : '- ';
          const body = blockText(item.tokens, `${indent}  `).join('\n');
          return `${indent}${marker}${body.trimStart()}`;
        });
        blocks.push(items.join('\n'));
        break;
      }
      case 'blockquote':
        blocks.push(
          blockText((token as Tokens.Blockquote).tokens)
            .join('\n\n')
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        );
        break;
      case 'code':
        blocks.push((token as Tokens.Code).text);
        break;
      case 'hr':
        blocks.push('----');
        break;
      case 'html': {
        const text = htmlText((token as Tokens.HTML).text).trim();
        if (text) blocks.push(text);
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: { tokens: Token[] }[]) =>
          cells.map((c) => inlineText(c.tokens)).join(' | ');
        blocks.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      default: {
        const raw = (token as { raw?: string }).raw;
        if (raw?.trim()) blocks.push(raw.trim());
      }
    }
  }
  return blocks;
}

/** The plain-text part: the Markdown's words, links as "label (url)", raw HTML reduced to text. */
export function renderCampaignText(markdown: string): string {
  return blockText(Lexer.lex(markdown)).join('\n\n').trim();
}
