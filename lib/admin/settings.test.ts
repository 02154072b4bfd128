// Unit tests for the settings form: normalising, the database's rules repeated, refusals placed at fields.
import { describe, expect, it } from 'vitest';
import { QueryError } from '../use-query';
import { normalizeForm, saveErrorFor, toForm, validateForm, type Settings } from './settings';

const row: Settings = {
  id: true,
  site_name: 'Postbox',
  tagline: '',
  logo_path: null,
  accent_color: '#1f4fd1',
  sender_name: 'Postbox',
  sender_email: 'hello@example.com',
  reply_to: null,
  postal_address: '',
  show_subscriber_count: false,
  track_opens: false,
  track_clicks: false,
  updated_at: '2026-11-22T10:00:00+00:00',
};

describe('settings form', () => {
  it('edits everything but the key and the timestamp', () => {
    const form = toForm(row);
    expect(form).not.toHaveProperty('id');
    expect(form).not.toHaveProperty('updated_at');
    expect(form.site_name).toBe('Postbox');
  });

  it('trims text, lower-cases addresses and turns an empty reply-to into null', () => {
    const form = normalizeForm({
      ...toForm(row),
      site_name: '  My letter ',
      sender_email: ' Hello@Example.COM ',
      reply_to: '   ',
    });
    expect(form).toMatchObject({
      site_name: 'My letter',
      sender_email: 'hello@example.com',
      reply_to: null,
    });
    expect(normalizeForm({ ...toForm(row), reply_to: ' Re@Example.com' }).reply_to).toBe(
      're@example.com',
    );
  });

  it('accepts the defaults and names every broken field', () => {
    expect(validateForm(toForm(row))).toEqual({});
    const errors = validateForm({
      ...toForm(row),
      site_name: '',
      tagline: 'x'.repeat(201),
      sender_name: 'x'.repeat(101),
      sender_email: 'nope',
      reply_to: 'also@nope',
      postal_address: 'x'.repeat(301),
    });
    expect(Object.keys(errors).sort()).toEqual(
      ['postal_address', 'reply_to', 'sender_email', 'sender_name', 'site_name', 'tagline'].sort(),
    );
    expect(errors.site_name).toBe('Enter a site name.');
  });
});

describe('saveErrorFor', () => {
  it('places a check-constraint refusal at its column', () => {
    const error = new QueryError(
      'new row for relation "settings" violates check constraint "settings_sender_email_check"',
      { code: '23514' },
    );
    expect(saveErrorFor(error)).toEqual({
      field: 'sender_email',
      message: 'Enter a valid email address.',
    });
    const name = new QueryError('violates check constraint "settings_site_name_check"', {
      code: '23514',
    });
    expect(saveErrorFor(name).field).toBe('site_name');
  });

  it('reads "no row updated" as a permission refusal and keeps other messages', () => {
    expect(
      saveErrorFor(
        new QueryError('JSON object requested, multiple (or no) rows returned', {
          code: 'PGRST116',
        }),
      ),
    ).toEqual({
      field: 'form',
      message: 'Only the owner can change the settings.',
    });
    expect(saveErrorFor(new QueryError('Failed to fetch'))).toEqual({
      field: 'form',
      message: 'Failed to fetch',
    });
  });
});
