// Unit tests for the shared email rule (SPEC §5).
import { describe, expect, it } from 'vitest';
import { checkEmail, isValidNormalizedEmail, normalizeEmail } from './email';

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com');
  });
});

describe('checkEmail', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    [' Ada@Example.com ', 'ada@example.com'],
    ['first.last+tag@sub.example.co.uk', 'first.last+tag@sub.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['x@a-b.io', 'x@a-b.io'],
    ['1@2.de', '1@2.de'],
    ["!#$%&'*+/=?^_`{|}~-@example.org", "!#$%&'*+/=?^_`{|}~-@example.org"],
  ])('accepts %j', (input, email) => {
    expect(checkEmail(input)).toEqual({ ok: true, email });
  });

  it.each([
    '',
    '   ',
    'plainaddress',
    '@example.com',
    'ada@',
    'ada@localhost',
    'ada@example',
    'ada@example.c',
    'ada@example.c0m',
    'ada@example.123',
    'ada@-example.com',
    'ada@example-.com',
    'ada@exa_mple.com',
    'ada@example..com',
    'ada@.example.com',
    'ada@example.com.',
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    'a da@example.com',
    '"ada"@example.com',
    'ada@@example.com',
    'ada@exa@mple.com',
    'adä@example.com',
    'ada@exämple.com',
    'ada@[127.0.0.1]',
    'ada@example.com\u0000',
  ])('rejects %j', (input) => {
    expect(checkEmail(input)).toEqual({ ok: false, code: 'invalid_email' });
  });

  it('rejects values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['a@b.co']]) {
      expect(checkEmail(value)).toEqual({ ok: false, code: 'invalid_email' });
    }
  });

  it('enforces the 64-character local part', () => {
    expect(checkEmail(`${'a'.repeat(64)}@example.com`).ok).toBe(true);
    expect(checkEmail(`${'a'.repeat(65)}@example.com`).ok).toBe(false);
  });

  it('enforces 63-character labels', () => {
    expect(checkEmail(`ada@${'b'.repeat(63)}.com`).ok).toBe(true);
    expect(checkEmail(`ada@${'b'.repeat(64)}.com`).ok).toBe(false);
  });

  it('enforces 254 characters in total, counted after trimming', () => {
    const local = 'l'.repeat(64);
    const at254 = `${local}@${'d'.repeat(61)}.${'d'.repeat(61)}.${'d'.repeat(61)}.com`;
    const at255 = `${local}@${'d'.repeat(62)}.${'d'.repeat(61)}.${'d'.repeat(61)}.com`;
    expect([at254.length, at255.length]).toEqual([254, 255]);
    expect(checkEmail(at254).ok).toBe(true);
    expect(checkEmail(`  ${at254}  `).ok).toBe(true);
    expect(checkEmail(at255).ok).toBe(false);
  });
});

describe('isValidNormalizedEmail', () => {
  it('does not normalise for the caller', () => {
    expect(isValidNormalizedEmail('Ada@example.com')).toBe(false);
    expect(isValidNormalizedEmail(' ada@example.com')).toBe(false);
    expect(isValidNormalizedEmail('ada@example.com')).toBe(true);
  });
});
