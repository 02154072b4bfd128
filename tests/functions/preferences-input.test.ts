// Unit tests of the preferences function's input rules (supabase/functions/preferences/input.ts).
import { describe, expect, it } from 'vitest';

type Body = Record<string, unknown>;
const { parsePreferencesRequest } = (await import(
  /* @vite-ignore */ new URL('../../supabase/functions/preferences/input.ts', import.meta.url).href
)) as { parsePreferencesRequest: (body: Body) => Body };

const refusal = (body: Body) => {
  try {
    parsePreferencesRequest(body);
  } catch (error) {
    const { code, field } = error as { code?: string; field?: string };
    return `${code} ${field}`;
  }
  return 'ok';
};

describe('parsePreferencesRequest', () => {
  it('counts the name in characters, as SQL does: 100 emoji fit, 101 do not', () => {
    expect(refusal({ name: '\u{1F600}'.repeat(60) })).toBe('ok');
    expect(refusal({ name: '\u{1F600}'.repeat(100) })).toBe('ok');
    expect(refusal({ name: '\u{1F600}'.repeat(101) })).toBe('invalid_input name');
    expect(refusal({ name: 'x'.repeat(101) })).toBe('invalid_input name');
  });

  it('refuses an unpaired UTF-16 surrogate in the name or a list key, naming the field', () => {
    for (const name of ['Ada \ud800', '\udc00', 'x\ud83d']) {
      expect(refusal({ name })).toBe('invalid_input name');
    }
    expect(refusal({ lists: { '\ud800': true } })).toBe('invalid_input lists');
    // A surrogate pair is one character (an emoji) and fine.
    expect(refusal({ name: 'Ada \ud83d\ude00', lists: { newsletter: true } })).toBe('ok');
  });
});
