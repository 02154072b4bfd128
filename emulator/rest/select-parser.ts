// Parser for PostgREST's `select=` grammar: columns, aliases, casts, JSON paths, embeds, hints, spreads.
import type { AggregateFn, FieldRef, JsonPathStep, SelectItem } from './ast.js';
import { parseError } from './errors.js';

/** A cursor over a string, shared by the select, order and logic-tree parsers. */
export class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  peek(n = 1): string {
    return this.text.slice(this.pos, this.pos + n);
  }
  eat(token: string): boolean {
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }
  done(): boolean {
    return this.pos >= this.text.length;
  }
  fail(what: string): never {
    throw parseError(
      `"failed to parse ${what} (${this.text})" (line 1, column ${this.pos + 1})`,
      `unexpected ${this.done() ? 'end of input' : `"${this.peek()}"`}`,
    );
  }
}

const NAME_STOP = new Set([',', '.', ':', '(', ')', '!', '"']);

/** An identifier: `"quoted"` (with `""`/`\"` escapes) or a run of plain characters. */
export function readName(c: Cursor, what: string): string {
  if (c.eat('"')) {
    let out = '';
    while (!c.done()) {
      const ch = c.peek();
      if (ch === '\\' && c.peek(2).length === 2) {
        out += c.text[c.pos + 1];
        c.pos += 2;
      } else if (ch === '"') {
        c.pos++;
        return out;
      } else {
        out += ch;
        c.pos++;
      }
    }
    return c.fail(what);
  }
  const start = c.pos;
  while (!c.done()) {
    const ch = c.peek();
    if (NAME_STOP.has(ch) || c.peek(2) === '->' || c.peek(2) === '::') break;
    c.pos++;
  }
  if (c.pos === start) c.fail(what);
  return c.text.slice(start, c.pos);
}

/** A field with its optional JSON path: `col`, `data->a->>b`, `arr->0`. */
export function readField(c: Cursor, what: string): FieldRef {
  const name = readName(c, what);
  const jsonPath: JsonPathStep[] = [];
  for (;;) {
    if (c.eat('->>')) jsonPath.push({ op: '->>', key: readName(c, what) });
    else if (c.eat('->')) jsonPath.push({ op: '->', key: readName(c, what) });
    else break;
  }
  return { name, jsonPath };
}

const CAST = /^[A-Za-z_][A-Za-z0-9_ ]*(\[\])?/;
const AGGREGATES = new Set<AggregateFn>(['count', 'sum', 'avg', 'max', 'min']);

/** An optional `::type`. */
function readCast(c: Cursor): string | undefined {
  if (!c.eat('::')) return undefined;
  const match = CAST.exec(c.text.slice(c.pos));
  if (!match) c.fail('select');
  c.pos += match[0].length;
  return match[0].trim();
}

function readItem(c: Cursor): SelectItem {
  if (c.eat('*')) return { kind: 'star' };
  const spread = c.eat('...');
  let alias: string | undefined;
  let field = readField(c, 'select');
  if (c.peek() === ':' && c.peek(2) !== '::') {
    c.pos++;
    if (field.jsonPath.length) c.fail('select');
    alias = field.name;
    field = readField(c, 'select');
  }
  // `count()` alone counts rows; any other name followed by `()` is an (empty) embed.
  if (!spread && field.name === 'count' && field.jsonPath.length === 0 && c.eat('()')) {
    return { kind: 'aggregate', fn: 'count', alias, cast: readCast(c) };
  }
  if (c.peek() === '!' || (c.peek() === '(' && field.jsonPath.length === 0)) {
    let hint: string | undefined;
    let joinType: 'inner' | 'left' = 'left';
    while (c.eat('!')) {
      const word = readName(c, 'select');
      if (word === 'inner' || word === 'left') joinType = word;
      else if (hint === undefined) hint = word;
      else c.fail('select');
    }
    if (!c.eat('(')) c.fail('select');
    const select = c.peek() === ')' ? [] : readList(c);
    if (!c.eat(')')) c.fail('select');
    return { kind: 'embed', name: field.name, alias, hint, joinType, spread, select };
  }
  if (spread) c.fail('select');
  const cast = readCast(c);
  if (c.eat('.')) {
    // `col.sum()`, `col::numeric.avg()::int`.
    const fn = readName(c, 'select') as AggregateFn;
    if (!AGGREGATES.has(fn) || !c.eat('()')) c.fail('select');
    return { kind: 'aggregate', fn, field, alias, inputCast: cast, cast: readCast(c) };
  }
  return { kind: 'column', field, alias, cast };
}

function readList(c: Cursor): SelectItem[] {
  const items: SelectItem[] = [readItem(c)];
  while (c.eat(',')) items.push(readItem(c));
  return items;
}

/** Parses a `select` value; an absent or empty one means `*`. */
export function parseSelect(text: string | null): SelectItem[] {
  if (text === null || text.trim() === '') return [{ kind: 'star' }];
  const c = new Cursor(text.replace(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/g, ''));
  const items = readList(c);
  if (!c.done()) c.fail('select');
  return items;
}
