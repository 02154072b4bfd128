// The deploy hook form: headers lines, JSON body and URL checked as the table would.
import { describe, expect, it } from 'vitest';
import { headersText, readDeployHookForm } from './DeployHookCard.form';

describe('readDeployHookForm', () => {
  it('reads GitHub’s repository_dispatch set-up', () => {
    const read = readDeployHookForm({
      url: ' https://api.github.com/repos/me/site/dispatches ',
      headers: 'Authorization: Bearer ghp_x:y\n\nAccept: application/vnd.github+json',
      body: '{"event_type": "postbox"}',
    });
    expect(read.errors).toBeNull();
    expect(read.values).toEqual({
      url: 'https://api.github.com/repos/me/site/dispatches',
      headers: { Authorization: 'Bearer ghp_x:y', Accept: 'application/vnd.github+json' },
      body: { event_type: 'postbox' },
    });
    expect(headersText(read.values!.headers)).toBe(
      'Authorization: Bearer ghp_x:y\nAccept: application/vnd.github+json',
    );
  });

  it('names what is wrong, field by field', () => {
    const read = readDeployHookForm({
      url: 'ftp://host/',
      headers: 'Authorization Bearer x',
      body: '"text"',
    });
    expect(read.errors).toEqual({
      url: 'Enter the full address, starting with https://.',
      headers: 'Line 1: write each header as Name: value.',
      body: 'Enter a JSON object or array, or leave it empty.',
    });
  });

  it('takes no headers and no body', () => {
    const read = readDeployHookForm({
      url: 'https://api.netlify.com/build_hooks/abc',
      headers: '',
      body: ' ',
    });
    expect(read.values).toEqual({
      url: 'https://api.netlify.com/build_hooks/abc',
      headers: {},
      body: null,
    });
  });
});
