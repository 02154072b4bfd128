import { describe, expect, it } from 'vitest';
import { pendingRules, sendView, type ConfirmationSend } from './subscriber-resend';
import { rulesForIds } from './subscriber-rules';

const send = (patch: Partial<ConfirmationSend>): ConfirmationSend => ({
  id: 's1',
  status: 'running',
  total: 10,
  sent: 0,
  failed: 0,
  limited: 0,
  skipped: 0,
  import_id: null,
  kind: 'confirmation',
  ...patch,
});

describe('pendingRules', () => {
  it('narrows the target to enabled subscribers pending for at least N days', () => {
    const target = rulesForIds(['a']);
    expect(pendingRules(target, 2)).toEqual({
      match: 'all',
      rules: [
        target,
        { field: 'status', op: 'eq', value: 'enabled' },
        {
          field: 'subscription',
          op: 'has',
          value: { status: 'pending', subscribed_before: { days_ago: 2 } },
        },
      ],
    });
  });

  it('0 days (or less) means pending at all, with no date', () => {
    expect(pendingRules(rulesForIds(['a']), 0).rules[2]).toEqual({
      field: 'subscription',
      op: 'has',
      value: { status: 'pending' },
    });
    expect(pendingRules(rulesForIds(['a']), -3).rules[2]).toMatchObject({
      value: { status: 'pending' },
    });
  });
});

describe('sendView', () => {
  it('waits for the import while its addresses are not chosen', () => {
    expect(sendView(send({ status: 'waiting', total: null }))).toMatchObject({
      finished: false,
      percent: 0,
      text: 'Confirmation emails go out when the import is done.',
    });
  });

  it('counts every handled address towards the bar while it runs', () => {
    const view = sendView(send({ sent: 3, limited: 1, skipped: 1 }));
    expect(view.finished).toBe(false);
    expect(view.percent).toBe(50);
    expect(view.text).toMatch(/^Sending confirmation emails: 3 of 10 sent\./);
  });

  it('says who got it and who did not once done', () => {
    expect(sendView(send({ status: 'done', total: 1, sent: 1 }))).toEqual({
      finished: true,
      percent: 100,
      text: 'Confirmation email sent to 1 subscriber.',
      tone: 'success',
    });
    const limited = sendView(send({ status: 'done', total: 1, limited: 1 }));
    expect(limited.tone).toBe('error');
    expect(limited.text).toBe(
      'Confirmation email sent to 0 subscribers. 1 address had 5 emails in the last 10 minutes; try again later.',
    );
    expect(sendView(send({ status: 'done', total: 0 })).text).toBe(
      'Nobody to send to: none of them is pending.',
    );
  });

  it('speaks of the welcome for the welcome a Let in sends', () => {
    const welcome = { kind: 'welcome' } as const;
    expect(sendView(send({ ...welcome, sent: 2 })).text).toBe(
      'Sending welcome emails: 2 of 10 sent.',
    );
    expect(sendView(send({ ...welcome, status: 'done', total: 3, sent: 2, skipped: 1 })).text).toBe(
      'Welcome email sent to 2 subscribers. 1 subscriber no longer on the list.',
    );
  });
});
