// Unit tests for the team list and for reading invite-member's answers.
import { describe, expect, it } from 'vitest';
import { inviteField, ownerCount, parseInvitedMember, withInviters, type Member } from './members';

const member = (
  user_id: string,
  role: Member['role'],
  created_at: string,
  invited_by: string | null = null,
): Member => ({
  user_id,
  email: `${user_id}@example.com`,
  role,
  invited_by,
  created_at,
});

describe('withInviters', () => {
  it('orders by joining time and names the inviter while they are on the team', () => {
    const team = withInviters([
      member('b', 'editor', '2026-11-22T11:00:00Z', 'a'),
      member('a', 'owner', '2026-11-22T10:00:00Z'),
      member('c', 'viewer', '2026-11-22T12:00:00Z', 'gone'),
    ]);
    expect(team.map((m) => [m.user_id, m.invitedByEmail])).toEqual([
      ['a', null],
      ['b', 'a@example.com'],
      ['c', null],
    ]);
    expect(ownerCount(team)).toBe(1);
  });
});

describe('invite answers', () => {
  it('reads the invited member and refuses other shapes', () => {
    const member = { user_id: 'u1', email: 'a@example.com', role: 'editor' };
    expect(parseInvitedMember({ member })).toEqual(member);
    expect(parseInvitedMember({ member: { ...member, role: 'boss' } })).toBeNull();
    expect(parseInvitedMember({ user_id: 'u1' })).toBeNull();
    expect(parseInvitedMember(null)).toBeNull();
  });

  it('places failures at the field they concern', () => {
    expect(inviteField({ code: 'conflict', field: null })).toBe('email');
    expect(inviteField({ code: 'invalid_email', field: null })).toBe('email');
    expect(inviteField({ code: 'invalid_input', field: 'role' })).toBe('role');
    expect(inviteField({ code: 'forbidden', field: null })).toBeNull();
  });
});
