// Reads the text form of a stored query tree (`pg_rewrite.ev_action::text`, Postgres's outfuncs
// format) far enough to learn where each view column comes from. PostgREST does the same to give
// views the foreign keys of their base tables (SchemaCache.hs, "view key dependencies").

/** A `{TYPE :field value ...}` node; a field holding several tokens keeps them as an array. */
export interface PgNode {
  type: string;
  fields: Record<string, NodeValue>;
}
export type NodeValue = string | null | PgNode | NodeValue[];

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\n' || ch === '\t') {
      i++;
    } else if ('{}()'.includes(ch)) {
      tokens.push(ch);
      i++;
    } else if (ch === '"') {
      // A quoted string (column names in :colnames lists); backslash escapes the next character.
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') j++;
        value += text[j] ?? '';
        j++;
      }
      tokens.push(`"${value}`);
      i = j + 1;
    } else {
      // An atom; outfuncs backslash-escapes spaces, braces and parentheses inside names.
      let j = i;
      let value = '';
      while (j < text.length && !' \n\t{}()'.includes(text[j]!)) {
        if (text[j] === '\\') j++;
        value += text[j] ?? '';
        j++;
      }
      tokens.push(value);
      i = j;
    }
  }
  return tokens;
}

export function parseNodeTree(text: string): NodeValue {
  const tokens = tokenize(text);
  let pos = 0;

  const value = (): NodeValue => {
    const token = tokens[pos++];
    if (token === undefined) throw new Error('query tree ends early');
    if (token === '{') return node();
    if (token === '(') {
      const items: NodeValue[] = [];
      while (tokens[pos] !== ')') items.push(value());
      pos++;
      return items;
    }
    if (token === '<>') return null;
    return token;
  };

  const node = (): PgNode => {
    const result: PgNode = { type: tokens[pos++] ?? '', fields: {} };
    let field: string | null = null;
    let values: NodeValue[] = [];
    const flush = () => {
      if (field !== null) result.fields[field] = values.length === 1 ? values[0]! : values;
    };
    while (tokens[pos] !== '}') {
      if (pos >= tokens.length) throw new Error(`query tree node ${result.type} is not closed`);
      const token = tokens[pos]!;
      if (token.startsWith(':')) {
        flush();
        field = token.slice(1);
        values = [];
        pos++;
      } else {
        values.push(value());
      }
    }
    flush();
    pos++;
    return result;
  };

  const result = value();
  if (pos !== tokens.length) throw new Error('unexpected text after the query tree');
  return result;
}

export interface ColumnOrigin {
  /** The view column's number (resno). */
  column: number;
  /** The relation and column it is a plain reference to; absent for expressions. */
  table: string;
  tableColumn: number;
}

/** The plain column references among a view's output columns (its top-level target list). */
export function viewColumnOrigins(evAction: string): ColumnOrigin[] {
  const tree = parseNodeTree(evAction);
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!query || typeof query !== 'object' || Array.isArray(query) || query.type !== 'QUERY') {
    throw new Error('a view definition must be a QUERY');
  }
  const targets = query.fields.targetList;
  const entries = Array.isArray(targets) ? targets : targets ? [targets] : [];
  const origins: ColumnOrigin[] = [];
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const { resno, resorigtbl, resorigcol, resjunk } = entry.fields;
    if (resjunk === 'true' || typeof resorigtbl !== 'string' || resorigtbl === '0') continue;
    origins.push({ column: Number(resno), table: resorigtbl, tableColumn: Number(resorigcol) });
  }
  return origins;
}
