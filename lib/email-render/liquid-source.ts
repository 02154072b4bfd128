// Liquid inside Markdown: each tag is swapped for an opaque word before Markdown and the sanitiser
// run, and swapped back after, so neither can mangle it (marked would turn `"` into `&quot;`, split a
// table cell at `|` or percent-encode a link's `{{ web_url }}`). Also the template error that names
// the line of the author's source. Import-free (see merge-tags.ts).

/** What LiquidJS's Tokenizer yields: a tag or output token's offsets, or literal text. */
export interface LiquidToken {
  begin: number;
  end: number;
  kind: number;
}

/** LiquidJS's Tokenizer class, structurally. */
export type TokenizerClass = new (input: string) => {
  readTopLevelTokens(options?: object): LiquidToken[];
};

/** LiquidJS TokenKind values (src/parser/token-kind.ts): Tag = 4, Output = 8. */
const TAG = 4;
const OUTPUT = 8;

/** A syntax or render error of one part of a campaign, naming the line of that part's source. */
export class TemplateError extends Error {
  constructor(
    readonly part: 'subject' | 'preheader' | 'body',
    readonly line: number,
    readonly detail: string,
  ) {
    const name = { subject: 'Subject', preheader: 'Preheader', body: 'Body' }[part];
    super(line > 0 ? `${name}, line ${line}: ${detail}` : `${name}: ${detail}`);
    this.name = 'TemplateError';
  }
}

/** LiquidJS's message without its `, line:3, col:7` suffix (the line is named separately). */
export function detailOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split(/, line:\d+, col:\d+/)[0] ?? message).trim();
}

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** The offset a LiquidJS error points at (its token), or null. */
function errorOffset(error: unknown): number | null {
  const token = (error as { token?: { begin?: unknown } } | null)?.token;
  return typeof token?.begin === 'number' ? token.begin : null;
}

/** Wraps an error of parsing or rendering `source` (the author's own text) as a TemplateError. */
export function templateError(
  part: TemplateError['part'],
  source: string,
  error: unknown,
): TemplateError {
  if (error instanceof TemplateError) return error;
  const offset = errorOffset(error);
  const fromMessage = /line:(\d+)/.exec(error instanceof Error ? error.message : '');
  const line = offset !== null ? lineOf(source, offset) : Number(fromMessage?.[1] ?? 1);
  return new TemplateError(part, line, detailOf(error));
}

interface SourceTag {
  text: string;
  /** Line in the author's source. */
  line: number;
  output: boolean;
}

/** Markdown with every Liquid tag replaced by a word, and how to put the tags back. */
export interface ProtectedSource {
  text: string;
  /** Puts the tags back in rendered output; `where` maps offsets in that result to source lines. */
  restore(rendered: string, options?: { unwrapParagraphs?: boolean }): RestoredTemplate;
  /** True when `text` (or a URL in it) starts with a tag's word. */
  startsWithTag(text: string): boolean;
  /** True when `text` holds a tag's word anywhere. */
  containsTag(text: string): boolean;
  /** True when `a` and `b` are each one tag's word, for tags written the same. */
  sameTag(a: string, b: string): boolean;
  tagCount: number;
}

export interface RestoredTemplate {
  template: string;
  /** The source line of the tag at or before `offset` of `template` (1 when none). */
  lineAt(offset: number): number;
  /** True when an href or src attribute starts with a tag (its scheme is then not known yet). */
  tagStartsUrl: boolean;
}

/**
 * Tokenises `source` with LiquidJS's own tokenizer (so a `}}` inside a quoted string stays in its
 * tag) and swaps each tag for `<prefix><n>z`; the prefix is letters that do not occur in `source`.
 */
export function protectLiquid(
  Tokenizer: TokenizerClass,
  /** The engine's normalised options (delimiters, whitespace control). */
  options: object,
  source: string,
): ProtectedSource {
  const tokens = new Tokenizer(source).readTopLevelTokens(options);
  let prefix = 'pbmergetag';
  while (source.includes(prefix)) prefix += 'q';
  const tags: SourceTag[] = [];
  let text = '';
  let last = 0;
  for (const token of tokens) {
    if (token.kind !== OUTPUT && token.kind !== TAG) continue;
    text += source.slice(last, token.begin) + `${prefix}${tags.length}z`;
    tags.push({
      text: source.slice(token.begin, token.end),
      line: lineOf(source, token.begin),
      output: token.kind === OUTPUT,
    });
    last = token.end;
  }
  text += source.slice(last);
  const word = new RegExp(`${prefix}(\\d+)z`, 'g');
  const controlParagraph = new RegExp(`<p(?: [^>]*)?>(${prefix}\\d+z)</p>`, 'g');
  const urlStart = new RegExp(`\\s(?:href|src)="\\s*${prefix}\\d+z`);
  const wholeWord = new RegExp(`^${prefix}(\\d+)z$`);

  return {
    text,
    tagCount: tags.length,
    startsWithTag: (value) => value.trimStart().startsWith(prefix),
    containsTag: (value) => value.includes(prefix),
    sameTag(a, b) {
      const tagOf = (value: string) => {
        const match = wholeWord.exec(value.trim());
        return match ? tags[Number(match[1])]?.text.replace(/\s+/g, ' ') : undefined;
      };
      const first = tagOf(a);
      return first !== undefined && first === tagOf(b);
    },
    restore(rendered, options = {}) {
      let input = rendered;
      // `{% if %}` alone between blank lines is a paragraph of its own: no empty <p> around it.
      if (options.unwrapParagraphs)
        input = input.replace(controlParagraph, (whole, w: string) =>
          tags[Number(w.slice(prefix.length, -1))]?.output === false ? w : whole,
        );
      const positions: { at: number; line: number }[] = [];
      let template = '';
      let from = 0;
      for (const match of input.matchAll(word)) {
        const tag = tags[Number(match[1])];
        template += input.slice(from, match.index);
        if (tag) positions.push({ at: template.length, line: tag.line });
        template += tag ? tag.text : match[0];
        from = match.index! + match[0].length;
      }
      template += input.slice(from);
      return {
        template,
        tagStartsUrl: urlStart.test(input),
        lineAt(offset) {
          let line = 1;
          for (const p of positions) if (p.at <= offset) line = p.line;
          return line;
        },
      };
    },
  };
}

/**
 * Parses a template made from a ProtectedSource; an error points at the source line of the tag it
 * concerns (a tag the sanitiser dropped can leave an `if` unclosed: its line is the `if`'s).
 */
export function parseRestored<T>(
  part: TemplateError['part'],
  restored: RestoredTemplate,
  parse: (template: string) => T,
): T {
  try {
    return parse(restored.template);
  } catch (error) {
    const offset = errorOffset(error);
    throw new TemplateError(part, offset === null ? 1 : restored.lineAt(offset), detailOf(error));
  }
}
