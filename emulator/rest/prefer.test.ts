// Unit tests for the Prefer header parser.
import { describe, expect, it } from 'vitest';
import { parsePrefer, preferenceApplied } from './prefer.js';

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

describe('preferenceApplied', () => {
  const all = parsePrefer(
    'timezone=UTC, max-affected=3, handling=strict, tx=commit, count=exact, return=representation, missing=default, resolution=merge-duplicates',
  );
  it.each([
    ['read', true, 'count=exact, tx=commit, handling=strict, timezone=UTC'],
    [
      'insert',
      true,
      'resolution=merge-duplicates, missing=default, return=representation, count=exact, tx=commit, handling=strict, timezone=UTC',
    ],
    [
      'insert',
      false,
      'missing=default, return=representation, count=exact, tx=commit, handling=strict, timezone=UTC',
    ],
    [
      'update',
      false,
      'missing=default, return=representation, count=exact, tx=commit, handling=strict, timezone=UTC, max-affected=3',
    ],
    ['put', false, 'return=representation, count=exact, tx=commit, handling=strict, timezone=UTC'],
    [
      'delete',
      false,
      'return=representation, count=exact, tx=commit, handling=strict, timezone=UTC, max-affected=3',
    ],
    ['rpc', false, 'count=exact, tx=commit, handling=strict, timezone=UTC, max-affected=3'],
  ] as const)('echoes what a %s applies, in upstream order', (target, resolution, header) => {
    expect(preferenceApplied(all, target, resolution)).toBe(header);
  });

  it('echoes max-affected only with handling=strict, and nothing when nothing applies', () => {
    expect(preferenceApplied(parsePrefer('max-affected=1'), 'update')).toBeNull();
    expect(preferenceApplied(parsePrefer('return=minimal'), 'read')).toBeNull();
  });
});
