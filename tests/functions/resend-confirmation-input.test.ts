// The request shape of resend-confirmation (supabase/functions/resend-confirmation/input.ts).
import { describe, expect, it } from 'vitest';
import { MAX_IDS, resendRules } from '../../supabase/functions/resend-confirmation/input';

const id = '0192f3a4-1b2c-7d8e-9f00-112233445566';

describe('resendRules', () => {
  it('turns subscriber ids into an id rule', () => {
    expect(resendRules({ subscriber_ids: [id] })).toEqual({
      match: 'all',
      rules: [{ field: 'id', op: 'in', value: [id] }],
    });
  });

  it('passes rules of the right shape through', () => {
    const rules = { match: 'any', rules: [{ field: 'name', op: 'empty' }] };
    expect(resendRules({ rules })).toBe(rules);
  });

  it.each([
    [{}, 'rules'],
    [{ rules: { match: 'all', rules: [] }, subscriber_ids: [id] }, 'rules'],
    [{ rules: [] }, 'rules'],
    [{ subscriber_ids: [] }, 'subscriber_ids'],
    [{ subscriber_ids: ['nope'] }, 'subscriber_ids'],
    [{ subscriber_ids: Array.from({ length: MAX_IDS + 1 }, () => id) }, 'subscriber_ids'],
  ])('refuses %j naming %s', (body, field) => {
    expect(() => resendRules(body as Record<string, unknown>)).toThrow(
      expect.objectContaining({ code: 'invalid_input', field }),
    );
  });
});
