// Splits a SQL script into statements, for the `statements` column the Supabase CLI fills in.

/**
 * Splits on top-level semicolons, skipping those inside quotes, dollar quotes, comments and
 * `begin atomic … end` bodies. Statements come back trimmed, without their final semicolon;
 * fragments that are only comments or whitespace are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let atomicDepth = 0;
  let i = 0;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (stripComments(text).trim()) statements.push(text);
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? sql.length : eol + 1;
    } else if (ch === '/' && next === '*') {
      i = skipBlockComment(sql, i);
    } else if (ch === "'" || ch === '"') {
      const escapes = ch === "'" && /[eE]/.test(sql[i - 1] ?? '') && !isWordChar(sql[i - 2]);
      i = skipQuoted(sql, i, ch, escapes);
    } else if (ch === '$') {
      const tag = sql.slice(i).match(/^\$([A-Za-z_][A-Za-z0-9_]*)?\$/);
      if (tag && !isWordChar(sql[i - 1])) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? sql.length : close + tag[0].length;
      } else {
        i++;
      }
    } else if (isWordChar(ch) && !isWordChar(sql[i - 1])) {
      const word = sql.slice(i).match(/^[A-Za-z0-9_]+/)![0];
      const lower = word.toLowerCase();
      if (lower === 'begin' && /^\s+atomic\b/i.test(sql.slice(i + word.length))) atomicDepth++;
      else if (lower === 'case' && atomicDepth > 0) atomicDepth++;
      else if (lower === 'end' && atomicDepth > 0) atomicDepth--;
      i += word.length;
    } else if (ch === ';' && atomicDepth === 0) {
      push(i);
      start = i + 1;
      i++;
    } else {
      i++;
    }
  }
  push(sql.length);
  return statements;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_]/.test(ch);
}

function skipBlockComment(sql: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return i;
}

function skipQuoted(sql: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') {
      i += 2;
    } else if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return i;
}

function stripComments(text: string): string {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}
