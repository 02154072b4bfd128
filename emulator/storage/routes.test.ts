// Unit tests for the storage route matcher and the named-query loader.
import { describe, expect, it } from 'vitest';
import { listObjects } from './list.js';
import * as objects from './objects.js';
import { matchStorageRoute, notImplementedFeature } from './routes.js';
import * as sign from './sign.js';
import { moveObject } from './transfer.js';
import { parseNamedQueries, SQL } from './sql.js';

describe('storage routes', () => {
  it('matches static routes before bucket wildcards', () => {
    expect(matchStorageRoute('POST', '/object/list/docs')?.handler).toBe(listObjects);
    expect(matchStorageRoute('POST', '/object/move')?.handler).toBe(moveObject);
    expect(matchStorageRoute('POST', '/object/sign/docs/a/b.png')).toMatchObject({
      handler: sign.signObject,
      params: { bucket: 'docs', key: 'a/b.png' },
    });
    expect(matchStorageRoute('POST', '/object/sign/docs')?.handler).toBe(sign.signObjects);
  });

  it('decodes keys and needs a non-empty key for wildcard routes', () => {
    expect(matchStorageRoute('GET', '/object/docs/a%20b/c.txt')?.params).toEqual({
      bucket: 'docs',
      key: 'a b/c.txt',
    });
    expect(matchStorageRoute('DELETE', '/object/docs')?.handler).toBe(objects.deleteObjects);
    expect(matchStorageRoute('GET', '/object/docs')).toBeNull();
    expect(matchStorageRoute('PATCH', '/object/docs/a')).toBeNull();
    expect(matchStorageRoute('GET', '/bucket/a/extra')).toBeNull();
  });

  it('names the upstream features it does not implement', () => {
    expect(notImplementedFeature('/upload/resumable')).toContain('TUS');
    expect(notImplementedFeature('/s3/bucket')).toContain('S3');
    expect(notImplementedFeature('/s3x')).toBeNull();
  });

  it('loads every named query', () => {
    expect(SQL['find-object']).toContain('from storage.objects');
    const parsed = parseNamedQueries('-- name: a\n-- doc\nselect 1;\n\n-- name: b\nselect 2;\n');
    expect(Object.fromEntries(parsed)).toEqual({ a: 'select 1', b: 'select 2' });
  });
});
