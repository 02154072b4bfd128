// Unit tests for the team list and for reading invite-member's answers (SPEC §8 catalogue errors).
import { FunctionsFetchError, FunctionsHttpError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { ownerCount, readFunctionError, withInviters, type Member } from './members';

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

describe('readFunctionError', () => {
  const http = (status: number, body: string) => {
    const response = new Response(body, {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
    return { error: new FunctionsHttpError(response), response };
  };

  it('reads the catalogue code, message and field', async () => {
    const { error, response } = http(
      409,
      JSON.stringify({ error: { code: 'conflict', message: 'That address is already a member.' } }),
    );
    expect(await readFunctionError(error, response)).toEqual({
      code: 'conflict',
      message: 'That address is already a member.',
      field: null,
    });
    const withField = http(
      422,
      JSON.stringify({
        error: { code: 'invalid_input', message: 'role: choose one', field: 'role' },
      }),
    );
    expect((await readFunctionError(withField.error, withField.response)).field).toBe('role');
  });

  it('tells a missing function and a network failure apart from other errors', async () => {
    const missing = http(404, 'Function not found');
    expect((await readFunctionError(missing.error, missing.response)).code).toBe('not_found');
    expect((await readFunctionError(new FunctionsFetchError(new TypeError('x')))).code).toBe(
      'unreachable',
    );
    const broken = http(500, 'oops');
    expect(await readFunctionError(broken.error, broken.response)).toMatchObject({
      code: 'internal',
    });
  });
});
