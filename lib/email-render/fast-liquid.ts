// A fast path for the common template: every tag is `{{ a.b }}` or `{{ a.b | default: "text" }}`.
// LiquidJS renders through generators at roughly 20-40 µs a tag, which for a body full of tags is
// more than everything else a message costs (bench/send.ts); these templates are split once at
// their tags and filled by plain string joins, with LiquidJS's own semantics (own properties only,
// `default` for nil, false and '', its escape map). Anything else — other tags, filters or value
// types — renders with LiquidJS, so the output is the same either way (fast-liquid.test.ts).
// Import-free (see merge-tags.ts).
import type { TokenizerClass } from './liquid-source.ts';

/** Renders with a scope, or null when a value is of a type only LiquidJS renders exactly. */
export type FastTemplate = (scope: object) => string | null;

const SIMPLE =
  /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:\|\s*default:\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*)?\}\}$/;

/** LiquidJS's escape filter (src/filters/html.ts). */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
};
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** LiquidJS TokenKind values (src/parser/token-kind.ts): Tag = 4, Output = 8. */
const TAG = 4;
const OUTPUT = 8;

interface Slot {
  path: string[];
  fallback: string | undefined;
}

const own = Object.prototype.hasOwnProperty;

function lookup(scope: object, path: string[]): unknown {
  let value: unknown = scope;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !own.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * The fast renderer of `template`, or null when it has a tag outside the simple form. `html`:
 * values are escaped as LiquidJS's `outputEscape: 'escape'` does.
 */
export function compileFast(
  Tokenizer: TokenizerClass,
  options: object,
  template: string,
  html: boolean,
): FastTemplate | null {
  const literals: string[] = [];
  const slots: Slot[] = [];
  let last = 0;
  for (const token of new Tokenizer(template).readTopLevelTokens(options)) {
    if (token.kind === TAG) return null;
    if (token.kind !== OUTPUT) continue;
    const match = SIMPLE.exec(template.slice(token.begin, token.end));
    if (!match) return null;
    literals.push(template.slice(last, token.begin));
    slots.push({ path: match[1]!.split('.'), fallback: match[2] ?? match[3] });
    last = token.end;
  }
  literals.push(template.slice(last));
  return (scope) => {
    let out = literals[0]!;
    for (let i = 0; i < slots.length; i++) {
      const { path, fallback } = slots[i]!;
      const value = lookup(scope, path);
      let text: string;
      if (value === undefined || value === null || value === '') text = fallback ?? '';
      else if (typeof value === 'string') text = value;
      else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
      else return null;
      out += (html ? escape(text) : text) + literals[i + 1]!;
    }
    return out;
  };
}
