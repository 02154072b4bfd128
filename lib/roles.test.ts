// The role ladder of SPEC §6.
import { describe, expect, it } from 'vitest';
import { can, roleRank } from './roles';

describe('can', () => {
  it('follows viewer < editor < admin < owner', () => {
    expect(can('viewer', 'read')).toBe(true);
    expect(can('viewer', 'write-campaigns')).toBe(false);
    expect(can('editor', 'upload-media')).toBe(true);
    expect(can('editor', 'manage-lists')).toBe(false);
    expect(can('admin', 'manage-subscribers')).toBe(true);
    expect(can('admin', 'manage-settings')).toBe(false);
    expect(can('owner', 'manage-team')).toBe(true);
  });
  it('gives nothing to a non-member', () => {
    expect(can(null, 'read')).toBe(false);
    expect(roleRank(undefined)).toBe(0);
  });
});
