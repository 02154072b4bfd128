// An Auth outage is not a refused login (SPEC §8, issue 20 finding 4): when Auth cannot look the
// caller up (its database is gone), the admin functions answer 500 internal, never the 401 that
// would send a signed-in member back to the login page. A refused token stays 401.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { callFunction, signedInClient, sql, startFunctionsEmulator } from './kit';

let emu: RunningEmulator;
let adminToken: string;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
  const admin = await signedInClient(emu, 'admin');
  adminToken = (await admin.auth.getSession()).data.session!.access_token;
}, 120_000);
afterAll(async () => {
  await emu?.stop();
});

const CALLS: Record<string, Record<string, unknown>> = {
  'send-campaign': { campaign_id: randomUUID(), action: 'send' },
  'export-subscribers': { filters: { list: 'no-such-list' } },
  'import-subscribers': { import_id: randomUUID() },
  'invite-member': { email: 'someone@example.com', role: 'viewer' },
};

/** Auth's own tables out of reach, as in a database outage; put back afterwards. */
async function withAuthDown<T>(run: () => Promise<T>): Promise<T> {
  await sql(emu, 'alter table auth.users rename to users_during_outage');
  try {
    return await run();
  } finally {
    await sql(emu, 'alter table auth.users_during_outage rename to users');
  }
}

describe('admin functions while Auth cannot answer', () => {
  it('answer 500 internal, not 401, for a valid session', async () => {
    // Before: the session passes the check (the answer is about the request, not the login).
    for (const [name, body] of Object.entries(CALLS)) {
      const res = await callFunction(emu, name, { body, bearer: adminToken });
      expect([name, res.status]).not.toEqual([name, 401]);
    }
    const during = await withAuthDown(async () => {
      const answers: Record<string, unknown> = {};
      for (const [name, body] of Object.entries(CALLS)) {
        const res = await callFunction(emu, name, { body, bearer: adminToken });
        answers[name] = [res.status, res.body];
      }
      return answers;
    });
    const internal = [
      500,
      { error: { code: 'internal', message: 'Something went wrong. Nothing was changed.' } },
    ];
    expect(during).toEqual(Object.fromEntries(Object.keys(CALLS).map((n) => [n, internal])));
  });

  it('process-queue: a user session during the outage is 500, not 401', async () => {
    const res = await withAuthDown(() =>
      callFunction(emu, 'process-queue', { body: { budget_ms: 1000 }, bearer: adminToken }),
    );
    expect([res.status, res.body?.error?.code]).toEqual([500, 'internal']);
  });

  it('still answers a refused token with 401 unauthenticated', async () => {
    const res = await callFunction(emu, 'send-campaign', {
      body: CALLS['send-campaign'],
      bearer: `${adminToken.slice(0, -4)}AAAA`,
    });
    expect([res.status, res.body?.error?.code]).toEqual([401, 'unauthenticated']);
  });
});
