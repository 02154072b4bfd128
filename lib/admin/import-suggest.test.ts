// The import preview's starting columns: other tools' headers for the address and the name.
import { describe, expect, it } from 'vitest';
import { suggestedMapping } from './import-csv';

describe('suggestedMapping', () => {
  it('keeps the function’s own email and name columns', () => {
    expect(suggestedMapping(['Name', 'city', 'EMAIL'])).toEqual({ email: 2, name: 0 });
  });

  it('maps E-mail, Email Address and Full name style headers', () => {
    expect(suggestedMapping(['Full name', 'E-mail'])).toEqual({ email: 1, name: 0 });
    expect(suggestedMapping(['Email Address', 'Display Name'])).toEqual({ email: 0, name: 1 });
    expect(suggestedMapping(['Courriel', 'Prénom'])).toEqual({ email: 0, name: 1 });
  });

  it('takes a first name when there is no full name, and prefers the full name', () => {
    expect(suggestedMapping(['First Name', 'Last Name', 'Mail'])).toEqual({ email: 2, name: 0 });
    expect(suggestedMapping(['First Name', 'Full Name', 'email'])).toEqual({ email: 2, name: 1 });
  });

  it('leaves unknown headers unmapped', () => {
    expect(suggestedMapping(['contact', 'who'])).toEqual({ email: null, name: null });
  });
});
