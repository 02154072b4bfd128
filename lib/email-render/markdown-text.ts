// The plain-text part of a campaign (SPEC §7): the Markdown's words, links as "label (url)", raw
// HTML reduced to its text. Import-free (see merge-tags.ts): marked's Lexer and sanitize-html are
// passed in. Moved here from supabase/functions/_shared/campaign-render.ts so the editor's preview
// and the send make the text part with the same code.

/** The shapes of marked's tokens this file reads (marked's own types, structurally). */
interface Token {
  type: string;
  raw?: string;
  text?: string;
  tokens?: Token[];
}
type LinkToken = Token & { href: string; tokens: Token[] };
type TextToken = Token & { text: string };
type HeadingToken = Token & { depth: number; tokens: Token[] };
type ListToken = Token & { ordered: boolean; start: number | ''; items: { tokens: Token[] }[] };
type TableToken = Token & { header: { tokens: Token[] }[]; rows: { tokens: Token[] }[][] };

export interface TextDeps {
  /** marked's `Lexer.lex`. */
  lex(markdown: string): Token[];
  sanitizeHtml(
    html: string,
    options: { allowedTags: string[]; allowedAttributes: Record<string, string[]> },
  ): string;
  /** A link whose address is a merge tag (`{{ web_url }}`): kept, it becomes a URL when rendered. */
  isTagUrl(href: string): boolean;
  /** Text that holds a merge tag: its length is known only once the tag is filled in. */
  hasTag?(text: string): boolean;
  /** Two texts that are each the same merge tag (a link labelled with its own address). */
  sameTag?(a: string, b: string): boolean;
}

/**
 * The line under a heading whose text holds a merge tag: `underlineHeadings` replaces it, after the
 * tags are filled in, with as many `=` as the heading then has characters. Private-use characters,
 * so no Markdown or merge tag value makes it.
 */
export const UNDERLINE_AFTER_FILL = '\uE000underline\uE000';
const UNDERLINE_LINE = new RegExp(`^(.*)\n${UNDERLINE_AFTER_FILL}$`, 'gm');

/** Underlines the headings marked UNDERLINE_AFTER_FILL in a rendered text part. */
export function underlineHeadings(text: string): string {
  return text.replace(UNDERLINE_LINE, (_, heading: string) =>
    heading.trim() ? `${heading}\n${'='.repeat(heading.length)}` : heading,
  );
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
function htmlText(deps: TextDeps, html: string): string {
  return decodeEntities(deps.sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }));
}

function safeUrl(deps: TextDeps, href: string): string | null {
  const url = href.trim();
  return /^(https?:|mailto:)/i.test(url) || deps.isTagUrl(url) ? url : null;
}

function inlineText(deps: TextDeps, tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'link': {
        const link = token as LinkToken;
        const label = inlineText(deps, link.tokens);
        const url = safeUrl(deps, link.href);
        out += url && url !== label && !deps.sameTag?.(label, url) ? `${label} (${url})` : label;
        break;
      }
      case 'image': {
        const image = token as Token;
        out += image.text ? `[${image.text}]` : '';
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'html':
        out += htmlText(deps, (token as TextToken).text);
        break;
      case 'codespan':
        out += decodeEntities((token as TextToken).text);
        break;
      default: {
        const withTokens = token as { tokens?: Token[]; text?: string };
        out += withTokens.tokens
          ? inlineText(deps, withTokens.tokens)
          : decodeEntities(withTokens.text ?? '');
      }
    }
  }
  return out;
}

function blockText(deps: TextDeps, tokens: Token[], indent = ''): string[] {
  const blocks: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
        break;
      case 'heading': {
        const text = inlineText(deps, (token as HeadingToken).tokens);
        const underline = deps.hasTag?.(text) ? UNDERLINE_AFTER_FILL : '='.repeat(text.length);
        blocks.push((token as HeadingToken).depth <= 2 ? `${text}\n${underline}` : text);
        break;
      }
      case 'paragraph':
      case 'text': {
        // A link alone in its paragraph is the HTML part's button: "Label: URL", the address on
        // its own so a mail client links exactly it (not a closing parenthesis).
        const inner = ((token as Token).tokens ?? []).filter((t) => t.raw?.trim() !== '');
        const link =
          inner.length === 1 && inner[0]!.type === 'link' ? (inner[0] as LinkToken) : null;
        const url = link && safeUrl(deps, link.href);
        const label = link && inlineText(deps, link.tokens);
        if (link && url && label && url !== label) {
          blocks.push(`${label}:\n${url}`);
          break;
        }
        blocks.push(inlineText(deps, (token as Token).tokens ?? []) || (token as TextToken).text);
        break;
      }
      case 'list': {
        const list = token as ListToken;
        const start = typeof list.start === 'number' ? list.start : 1;
        const items = list.items.map((item, i) => {
          const marker = list.ordered ? `${start + i}. ` : '- ';
          const body = blockText(deps, item.tokens, `${indent}  `).join('\n');
          return `${indent}${marker}${body.trimStart()}`;
        });
        blocks.push(items.join('\n'));
        break;
      }
      case 'blockquote':
        blocks.push(
          blockText(deps, (token as HeadingToken).tokens)
            .join('\n\n')
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n'),
        );
        break;
      case 'code':
        blocks.push((token as TextToken).text);
        break;
      case 'hr':
        blocks.push('----');
        break;
      case 'html': {
        const text = htmlText(deps, (token as TextToken).text).trim();
        if (text) blocks.push(text);
        break;
      }
      case 'table': {
        const table = token as TableToken;
        const row = (cells: { tokens: Token[] }[]) =>
          cells.map((c) => inlineText(deps, c.tokens)).join(' | ');
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

/** The plain-text part of `markdown`. */
export function markdownText(deps: TextDeps, markdown: string): string {
  return blockText(deps, deps.lex(markdown)).join('\n\n').trim();
}
