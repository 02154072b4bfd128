// A Send Email Hook served by the emulator's own edge function: the function's first start (Deno
// launching, modules loading) is not charged to hosted's 5 s deadline, as a deployed function's is not.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { authFetch, client, startWithConfig, uniqueEmail } from './test-kit.js';

const SECRET = `v1,whsec_${Buffer.from('hook-cold-start-test-secret-0123').toString('base64')}`;

// Six seconds of module loading before the function serves: over the deadline on its own.
const SLOW_START_HOOK = `
await new Promise((r) => setTimeout(r, 6000));
Deno.serve(() => new Response(null, { status: 204 }));
`;

let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  emu = await startWithConfig(
    `
[auth]
site_url = "http://127.0.0.1:3000"

[functions.slow-start]
verify_jwt = false

[auth.hook.send_email]
enabled = true
uri = "http://127.0.0.1:54321/functions/v1/slow-start"
secrets = "${SECRET}"
`,
    { 'functions/slow-start/index.ts': SLOW_START_HOOK },
  );
}, 120_000);
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
});

it("a local hook function's first start does not count against the hook's deadline", async () => {
  const email = uniqueEmail('cold');
  const created = await client(emu, emu.keys.secret).auth.admin.createUser({
    email,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  const res = await authFetch(emu, '/otp', { method: 'POST', body: { email, create_user: false } });
  expect(res.status).toBe(200);
}, 60_000);
