// Unit tests for the Storage address and error reading of uploads with progress.
import { describe, expect, it } from 'vitest';
import { objectUrl, uploadError } from './upload-progress';

describe('objectUrl', () => {
  it('encodes each segment and keeps the folders', () => {
    expect(objectUrl('http://x', 'imports', 'u1/7-a b#.csv')).toBe(
      'http://x/storage/v1/object/imports/u1/7-a%20b%23.csv',
    );
  });
});

describe('uploadError', () => {
  it('reads the real status and message from the 400 body Storage answers', () => {
    const error = uploadError(
      400,
      JSON.stringify({
        statusCode: '403',
        error: 'Unauthorized',
        message: 'new row violates row-level security policy',
      }),
    );
    expect(error).toMatchObject({
      status: 403,
      code: 'Unauthorized',
      message: 'new row violates row-level security policy',
    });
  });

  it('says the size limit plainly and survives a body that is not JSON', () => {
    expect(uploadError(400, JSON.stringify({ statusCode: '413', message: 'x' })).message).toMatch(
      /50 MB/,
    );
    expect(uploadError(502, '<html>').message).toBe('The upload failed (HTTP 502).');
  });
});
