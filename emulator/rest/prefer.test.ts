// Unit tests for the Prefer header parser.
import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.js';

describe('parsePrefer', () => {
  it('reads comma-space joined tokens', () => {
    expect(
      parsePrefer(
        'count=exact, return=representation, resolution=merge-duplicates, missing=default, tx=rollback',
      ),
    ).toMatchObject({
      count: 'exact',
      return: 'representation',
      resolution: 'merge-duplicates',
      missing: 'default',
      tx: 'rollback',
    });
    expect(parsePrefer('handling=strict,max-affected=5')).toMatchObject({
      handling: 'strict',
      maxAffected: 5,
    });
  });

  it('ignores invalid tokens leniently and rejects them with handling=strict', () => {
    expect(parsePrefer('return=everything').return).toBeUndefined();
    expect(() => parsePrefer('handling=strict, return=everything')).toThrow(
      'Invalid preferences given with handling=strict',
    );
  });
});
