// Which records the import skips for broken quoting: text right after a quoted field's closing quote.
import { describe, expect, it } from 'vitest';
import { textAfterClosingQuote } from '../../supabase/functions/_shared/csv-rows';

describe('textAfterClosingQuote', () => {
  it('finds text after a closing quote, in any field and with any delimiter', () => {
    expect(textAfterClosingQuote('a@x.io,"Ann"x', ',')).toBe(true);
    expect(textAfterClosingQuote('"a@x.io" ,Ann', ',')).toBe(true);
    expect(textAfterClosingQuote('a@x.io;"Ann"y;z', ';')).toBe(true);
  });

  it('accepts well-formed quoting, doubled quotes, quotes inside unquoted fields and line breaks', () => {
    expect(textAfterClosingQuote('a@x.io,"A ""quoted"" name",x', ',')).toBe(false);
    expect(textAfterClosingQuote('a@x.io,Jo,12" screen', ',')).toBe(false);
    expect(textAfterClosingQuote('a@x.io,"Two\nlines"\r\n', ',')).toBe(false);
    expect(textAfterClosingQuote('a@x.io\t"tab, separated"', '\t')).toBe(false);
    // A comma is text in a semicolon file: the quote closes before the delimiter.
    expect(textAfterClosingQuote('a@x.io;"Ann",x', ';')).toBe(true);
  });
});
