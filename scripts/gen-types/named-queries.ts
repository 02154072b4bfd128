// Loads a .sql file of named queries (`-- name: x` starts each), as listmonk keeps its SQL.
import { readFile } from 'node:fs/promises';

/** Splits the file into `{ name: sql }`; text before the first `-- name:` is the file's header. */
export function parseNamedQueries(text: string): Record<string, string> {
  const queries: Record<string, string> = {};
  const parts = text.split(/^--\s*name:\s*(\S+)\s*$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    if (name in queries) throw new Error(`named query "${name}" is defined twice`);
    queries[name] = parts[i + 1]!.trim().replace(/;$/, '');
  }
  return queries;
}

/** A missing name stops the program at load time rather than at the first query. */
export async function loadNamedQueries<N extends string>(
  url: URL,
  names: readonly N[],
): Promise<Record<N, string>> {
  const queries = parseNamedQueries(await readFile(url, 'utf8'));
  for (const name of names) {
    if (!queries[name]) throw new Error(`${url.pathname} has no query named "${name}"`);
  }
  return queries as Record<N, string>;
}
