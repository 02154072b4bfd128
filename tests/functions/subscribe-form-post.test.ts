// Unit tests: how subscribe reads a plain HTML form and where each outcome sends the visitor.
import { describe, expect, it } from 'vitest';
import {
  formBody,
  isFormPost,
  outcomeForError,
  outcomeForStatus,
  outcomeUrl,
  redirectTo,
} from '../../supabase/functions/subscribe/form-post';

describe('form post', () => {
  it('recognises only the urlencoded content type', () => {
    expect(isFormPost('application/x-www-form-urlencoded')).toBe(true);
    expect(isFormPost('Application/X-WWW-Form-Urlencoded; charset=UTF-8')).toBe(true);
    expect(isFormPost('application/json')).toBe(false);
    expect(isFormPost('multipart/form-data; boundary=x')).toBe(false);
    expect(isFormPost(null)).toBe(false);
  });

  it('reads the known fields and ignores the rest', () => {
    expect(
      formBody('email=a%40b.co&name=Ada+L&website=&ref=abc&redirect=https%3A%2F%2Fevil&x=1'),
    ).toEqual({ email: 'a@b.co', name: 'Ada L', website: '', ref: 'abc' });
  });

  it('collects list and lists, repeated or comma separated; no field means the main list', () => {
    expect(formBody('email=a%40b.co&list=one&lists=two&lists=three,%20four').lists).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    expect(formBody('email=a%40b.co')).not.toHaveProperty('lists');
    // Present but empty: no list chosen, which the input rules refuse.
    expect(formBody('email=a%40b.co&lists=').lists).toEqual([]);
  });

  it('maps every result to its page', () => {
    expect(outcomeForStatus('pending')).toBe('check-inbox');
    expect(outcomeForStatus('confirmed')).toBe('thanks');
    expect(outcomeForError('invalid_email')).toBe('invalid');
    expect(outcomeForError('invalid_input')).toBe('invalid');
    expect(outcomeForError('rate_limited')).toBe('too-many');
    expect(outcomeForError('list_not_found')).toBe('no-list');
    expect(outcomeForError('internal')).toBe('error');
  });

  it('redirects with 303 under the site URL only', () => {
    expect(outcomeUrl('https://news.example.com/', 'thanks')).toBe(
      'https://news.example.com/subscribe/thanks/',
    );
    const res = redirectTo('https://news.example.com', 'too-many', { 'Retry-After': '60' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://news.example.com/subscribe/too-many/');
    expect(res.headers.get('retry-after')).toBe('60');
  });
});
