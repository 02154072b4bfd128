// Unit tests for the subscriber edit form's attribute rows, raw JSON and SPEC §5 checks.
import { describe, expect, it } from 'vitest';
import {
  attributesFromRows,
  editProblems,
  parseRawAttributes,
  rowsFromAttributes,
} from './subscriber-edit';

describe('attribute rows', () => {
  it('types each value and turns the rows back into the same object', () => {
    const attributes = { plan: 'pro', seats: 5, vip: true, renew: '2026-03-01' };
    const rows = rowsFromAttributes(attributes)!;
    expect(rows).toEqual([
      { key: 'plan', type: 'text', value: 'pro' },
      { key: 'seats', type: 'number', value: '5' },
      { key: 'vip', type: 'boolean', value: 'true' },
      { key: 'renew', type: 'date', value: '2026-03-01' },
    ]);
    expect(attributesFromRows(rows)).toEqual({ ok: true, attributes });
  });

  it('sends objects and lists to raw JSON instead of flattening them', () => {
    expect(rowsFromAttributes({ tags: ['a'] })).toBeNull();
    expect(rowsFromAttributes({ nested: { a: 1 } })).toBeNull();
  });

  it('names what is wrong in each row', () => {
    const result = attributesFromRows([
      { key: 'n', type: 'number', value: 'ten' },
      { key: 'd', type: 'date', value: '2026-13-45' },
      { key: 'n', type: 'text', value: 'again' },
      { key: ' ', type: 'text', value: 'orphan' },
      { key: '', type: 'text', value: '' },
    ]);
    expect(result).toEqual({
      ok: false,
      problems: {
        0: 'Enter a number.',
        1: 'Enter a date as YYYY-MM-DD.',
        2: '"n" is already used above.',
        3: 'Give this value a name.',
      },
    });
  });
});

describe('raw JSON', () => {
  it('takes an object, refuses anything else', () => {
    expect(parseRawAttributes('{"a": [1, 2]}')).toEqual({ ok: true, attributes: { a: [1, 2] } });
    expect(parseRawAttributes('')).toEqual({ ok: true, attributes: {} });
    expect(parseRawAttributes('[1]')).toMatchObject({ ok: false });
    expect(parseRawAttributes('{oops')).toEqual({ ok: false, message: 'This is not valid JSON.' });
  });
});

describe('editProblems', () => {
  const fine = { email: ' Ada@Example.com ', name: 'Ada', attributes: {}, notes: '' };
  it('accepts an address SPEC §5 normalises', () => {
    expect(editProblems(fine)).toEqual({});
  });
  it('refuses a bad address, a control character, 4 KB of attributes and long notes', () => {
    expect(
      editProblems({
        email: 'ada@',
        name: 'A\u0007',
        attributes: { big: 'x'.repeat(4100) },
        notes: 'n'.repeat(10_001),
      }),
    ).toEqual({
      email: 'Enter a valid email address.',
      name: expect.any(String),
      attributes: 'Attributes may take at most 4 KB.',
      notes: 'Notes may have at most 10,000 characters.',
    });
  });
});
