// send-campaign refusals placed at the editor's fields, and the test-recipient list parsed.
import { describe, expect, it } from 'vitest';
import { failure } from '../functions';
import { actionFailure, parseEmailList } from './campaign-editor';

describe('actionFailure', () => {
  it('puts a refusal at its field without repeating the field name', () => {
    expect(
      actionFailure(
        failure('invalid_input', 'emails: x@example.com is not a team member', 'emails'),
      ),
    ).toEqual({ ok: false, field: 'emails', message: 'x@example.com is not a team member' });
    expect(
      actionFailure(failure('invalid_input', 'at: must be a time in the future', 'at')),
    ).toEqual({ ok: false, field: 'at', message: 'must be a time in the future' });
  });
  it('keeps whole-form errors whole', () => {
    expect(actionFailure(failure('no_recipients', 'This campaign has no recipients.'))).toEqual({
      ok: false,
      field: null,
      message: 'This campaign has no recipients.',
    });
    // A field the editor has no control for is shown for the whole panel.
    expect(
      actionFailure(failure('invalid_input', 'campaign_id: must be a campaign id', 'campaign_id')),
    ).toMatchObject({ field: null, message: 'campaign_id: must be a campaign id' });
  });
});

describe('parseEmailList', () => {
  it('splits on commas, semicolons and spaces, lower-cases and drops repeats', () => {
    expect(parseEmailList(' A@x.test, b@x.test;a@x.test\nc@x.test ,, ')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
    ]);
    expect(parseEmailList('   ')).toEqual([]);
  });
});
