// Where an address may wrap: only after its separators, so no word is ever cut.
import { describe, expect, it } from 'vitest';
import { emailParts } from './email-wrap';

describe('emailParts', () => {
  it('cuts after @ . - _ + and keeps every word whole', () => {
    expect(emailParts('ada.lovelace+news@mail-box.example.co.uk')).toEqual([
      'ada.',
      'lovelace+',
      'news@',
      'mail-',
      'box.',
      'example.',
      'co.',
      'uk',
    ]);
    expect(emailParts('x@y.io').join('')).toBe('x@y.io');
    expect(emailParts('averyveryverylonglocalpartwithoutseparators@example.com')[0]).toBe(
      'averyveryverylonglocalpartwithoutseparators@',
    );
  });
});
