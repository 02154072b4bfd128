import { describe, expect, it } from 'vitest';
import { isUuid, randomUuid } from './uuid';

describe('randomUuid', () => {
  it('makes version 4 UUIDs (the RFC 9562 variant), a new one each time', () => {
    const ids = Array.from({ length: 200 }, () => randomUuid());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('isUuid', () => {
  it('takes uuid text in either case and nothing else', () => {
    expect(isUuid('0190F3A2-7b1c-7e3d-9a4b-1c2d3e4f5a6b')).toBe(true);
    for (const value of ['', 'x', '0190f3a2-7b1c-7e3d-9a4b-1c2d3e4f5a6', null, 42])
      expect(isUuid(value)).toBe(false);
  });
});
