// Unit tests of the automation editor's words for steps and its edit rule (lib/admin/automations.ts).
import { describe, expect, it } from 'vitest';
import { durationLabel, mayEdit, stepSummary } from './automations';

const base = {
  subject: null,
  wait_seconds: null,
  wait_weekday: null,
  wait_hour: null,
  tag_id: null,
  list_id: null,
};

describe('durationLabel', () => {
  it('names days and hours, minutes only under a day', () => {
    expect(durationLabel(3 * 86400)).toBe('3 days');
    expect(durationLabel(86400 + 6 * 3600)).toBe('1 day 6 hours');
    expect(durationLabel(90 * 60)).toBe('1 hour 30 minutes');
    expect(durationLabel(60)).toBe('1 minute');
  });
});

describe('stepSummary', () => {
  it('says what each kind of step does, with the names of its list or tag', () => {
    expect(stepSummary({ ...base, kind: 'email', subject: 'Hi' })).toBe('Send “Hi”');
    expect(stepSummary({ ...base, kind: 'wait', wait_seconds: 259200 })).toBe('Wait 3 days');
    expect(stepSummary({ ...base, kind: 'wait', wait_weekday: 1, wait_hour: 9 })).toBe(
      'Wait until Monday 09:00 UTC',
    );
    const lists = new Map([['l1', 'News']]);
    const tags = new Map([['t1', 'VIP']]);
    expect(stepSummary({ ...base, kind: 'list_add', list_id: 'l1' }, { lists })).toBe(
      'Add to News',
    );
    expect(stepSummary({ ...base, kind: 'list_remove', list_id: 'gone' }, { lists })).toBe(
      'Remove from a list',
    );
    expect(stepSummary({ ...base, kind: 'tag_add', tag_id: 't1' }, { tags })).toBe(
      'Add the tag VIP',
    );
    expect(stepSummary({ ...base, kind: 'condition' })).toBe('Continue only if in the segment');
  });
});

describe('mayEdit', () => {
  it('mirrors the RLS rule: editors drafts and paused ones, admins and owners all', () => {
    expect(mayEdit('viewer', 'draft')).toBe(false);
    expect(mayEdit('editor', 'draft')).toBe(true);
    expect(mayEdit('editor', 'paused')).toBe(true);
    expect(mayEdit('editor', 'active')).toBe(false);
    expect(mayEdit('admin', 'active')).toBe(true);
    expect(mayEdit('owner', 'active')).toBe(true);
  });
});
