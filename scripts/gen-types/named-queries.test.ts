// Unit tests for the named-query file parser.
import { describe, expect, it } from 'vitest';
import { parseNamedQueries } from './named-queries.js';

describe('parseNamedQueries', () => {
  it('splits on -- name: lines and drops the header and trailing semicolons', () => {
    const text = '-- header\n\n-- name: a\n-- about a\nselect 1;\n\n-- name: b\nselect\n  2;\n';
    expect(parseNamedQueries(text)).toEqual({ a: '-- about a\nselect 1', b: 'select\n  2' });
  });

  it('rejects a name defined twice', () => {
    expect(() => parseNamedQueries('-- name: a\nselect 1;\n-- name: a\nselect 2;')).toThrow(
      'named query "a" is defined twice',
    );
  });
});
