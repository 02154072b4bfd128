// [auth.hook.send_email] as hosted Auth runs it: a signed POST instead of an email, the payload's
// fields, and what the client gets when the hook fails, times out or cannot be reached.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../index.js';
import { authFetch, client, mailCount, startWithConfig, uniqueEmail } from './test-kit.js';

const SECRET = `v1,whsec_${Buffer.from('send-email-hook-test-secret-0123').toString('base64')}`;

interface Call {
  headers: IncomingMessage['headers'];
  body: string;
}
type Behaviour = (res: ServerResponse, call: Call, attempt: number) => void;

let server: Server;
let calls: Call[] = [];
let behave: Behaviour;
let emu: RunningEmulator & { cleanupDir(): Promise<void> };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const call = { headers: req.headers, body };
      calls.push(call);
      behave(res, call, calls.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  emu = await startWithConfig(`
[auth]
site_url = "http://127.0.0.1:3000"
additional_redirect_urls = ["http://127.0.0.1:3000/**"]

[auth.hook.send_email]
enabled = true
uri = "http://127.0.0.1:${port}/hook"
secrets = "${SECRET}"
`);
});
afterAll(async () => {
  await emu?.stop();
  await emu?.cleanupDir();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  calls = [];
  behave = (res) => res.writeHead(204).end();
});

async function confirmedUser(): Promise<string> {
  const email = uniqueEmail('hook');
  const { error } = await client(emu, emu.keys.secret).auth.admin.createUser({
    email,
    email_confirm: true,
  });
  if (error) throw error;
  return email;
}

const askForLink = (email: string) =>
  authFetch(emu, '/otp', { method: 'POST', body: { email, create_user: false } });

describe('a working hook', () => {
  it('gets the signed payload instead of an email, and its token signs in', async () => {
    const email = await confirmedUser();
    const res = await authFetch(emu, '/otp?redirect_to=http://127.0.0.1:3000/in', {
      method: 'POST',
      body: { email },
    });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    const { headers, body } = calls[0]!;
    expect(headers['content-type']).toBe('application/json');
    const id = headers['webhook-id'] as string;
    const timestamp = headers['webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
    const key = Buffer.from(SECRET.slice('v1,whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${mac}`);

    const payload = JSON.parse(body);
    expect(Object.keys(payload)).toEqual(['metadata', 'user', 'email_data']);
    expect(payload.metadata.name).toBe('send-email');
    expect(payload.user.email).toBe(email);
    expect(payload.email_data).toMatchObject({
      email_action_type: 'magiclink',
      redirect_to: 'http://127.0.0.1:3000/in',
      site_url: emu.url,
      token_new: '',
      token_hash_new: '',
    });
    expect(payload.email_data.token).toMatch(/^\d{6}$/);
    expect(payload.email_data.token_hash).toMatch(/^[0-9a-f]{56}$/);
    // Auth itself mailed nothing.
    expect(await mailCount(emu, email)).toBe(0);

    const verified = await client(emu, emu.keys.anon).auth.verifyOtp({
      email,
      token: payload.email_data.token,
      type: 'email',
    });
    expect(verified.error).toBeNull();
  });

  it('a secure email change is one call with both codes, laid out as upstream', async () => {
    const email = uniqueEmail('hook-from');
    await client(emu, emu.keys.secret).auth.admin.createUser({
      email,
      password: 'secret123',
      email_confirm: true,
    });
    const sb = client(emu, emu.keys.anon);
    await sb.auth.signInWithPassword({ email, password: 'secret123' });
    calls = [];
    const next = uniqueEmail('hook-to');
    expect((await sb.auth.updateUser({ email: next })).error).toBeNull();
    expect(calls).toHaveLength(1);
    const payload = JSON.parse(calls[0]!.body);
    expect(payload.user).toMatchObject({ email, new_email: next });
    const data = payload.email_data;
    expect(data.email_action_type).toBe('email_change');
    // api/mail.go sendEmail: token is the current address's code and token_hash_new its hash;
    // token_new is the new address's code and token_hash its hash.
    const sha = (s: string) => createHash('sha224').update(s).digest('hex');
    expect(data.token).toMatch(/^\d{6}$/);
    expect(data.token_new).toMatch(/^\d{6}$/);
    expect(data.token_hash_new).toBe(sha(email + data.token));
    expect(data.token_hash).toBe(sha(next + data.token_new));
    expect(await mailCount(emu, email)).toBe(0);
    expect(await mailCount(emu, next)).toBe(0);
    // Email confirmations off (autoconfirm): upstream applies the change on the first code.
    const verified = await sb.auth.verifyOtp({ email, token: data.token, type: 'email_change' });
    expect(verified.error).toBeNull();
    expect(verified.data.user!.email).toBe(next);
  });

  it('an invite carries the user metadata given to Auth', async () => {
    const email = uniqueEmail('invitee');
    const { error } = await client(emu, emu.keys.secret).auth.admin.inviteUserByEmail(email, {
      data: { invited_by_email: 'owner@example.com', role: 'admin' },
    });
    expect(error).toBeNull();
    const payload = JSON.parse(calls[0]!.body);
    expect(payload.email_data.email_action_type).toBe('invite');
    expect(payload.user.user_metadata).toMatchObject({
      invited_by_email: 'owner@example.com',
      role: 'admin',
    });
  });

  it('a reauthentication nonce goes to the hook, and is undone when the hook fails', async () => {
    const email = uniqueEmail('reauth-hook');
    const admin = client(emu, emu.keys.secret);
    await admin.auth.admin.createUser({ email, password: 'hook-pass', email_confirm: true });
    const c = client(emu, emu.keys.anon);
    await c.auth.signInWithPassword({ email, password: 'hook-pass' });
    expect((await c.auth.reauthenticate()).error).toBeNull();
    const payload = JSON.parse(calls[0]!.body);
    expect(payload.email_data.email_action_type).toBe('reauthentication');
    expect(payload.email_data.token).toMatch(/^\d{6}$/);
    expect(await mailCount(emu, email)).toBe(0);
    const token = async () =>
      (
        await emu.db.query<{ t: string }>(
          'select reauthentication_token as t from auth.users where email = $1',
          [email],
        )
      ).rows[0]!.t;
    const issued = await token();
    expect(issued).toBe(payload.email_data.token_hash);

    behave = (res) => res.writeHead(500).end();
    const failed = await c.auth.reauthenticate();
    expect(failed.error?.status).toBe(500);
    expect(await token()).toBe(issued);
  });

  it('a 503 with Retry-After is tried again at once, with a fresh webhook-id', async () => {
    behave = (res, _call, attempt) =>
      attempt === 1 ? res.writeHead(503, { 'Retry-After': '1' }).end() : res.writeHead(204).end();
    expect((await askForLink(await confirmedUser())).status).toBe(200);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers['webhook-id']).not.toBe(calls[1]!.headers['webhook-id']);
  });
});

describe('a failing hook', () => {
  async function refusal(b: Behaviour, ask: () => Promise<Response>) {
    behave = b;
    const res = await ask();
    return { status: res.status, body: await res.json() };
  }

  it('answers as hosted Auth does for each kind of failure', async () => {
    const email = await confirmedUser();
    const cases: Array<[Behaviour, number, Record<string, string>]> = [
      [
        (res) => res.writeHead(500).end('boom'),
        500,
        { code: 'unexpected_failure', message: 'Unexpected status code returned from hook: 500' },
      ],
      [
        (res) => res.writeHead(400).end(),
        500,
        { code: 'unexpected_failure', message: 'Invalid payload sent to hook' },
      ],
      [
        (res) => res.writeHead(401).end(),
        500,
        { code: 'unexpected_failure', message: 'Hook requires authorization token' },
      ],
      [
        (res) => res.writeHead(503).end(),
        500,
        { code: 'unexpected_failure', message: 'Service currently unavailable due to hook' },
      ],
      [
        (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'),
        400,
        {
          code: 'hook_payload_invalid_content_type',
          message: 'Invalid JSON response. Received content-type: text/plain',
        },
      ],
      [
        (res) =>
          res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ error: { http_code: 429, message: 'Slow down' } })),
        429,
        { code: 'unknown', message: 'Slow down' },
      ],
    ];
    for (const [b, status, body] of cases) {
      expect(await refusal(b, () => askForLink(email))).toEqual({ status, body });
    }
  });

  it('undoes what the request made: an invitee whose invite failed has no account', async () => {
    const email = uniqueEmail('unsent');
    const { status } = await refusal(
      (res) => res.writeHead(500).end(),
      () => authFetch(emu, '/invite', { method: 'POST', body: { email }, apikey: emu.keys.secret }),
    );
    expect(status).toBe(500);
    const list = await client(emu, emu.keys.secret).auth.admin.listUsers({ perPage: 1000 });
    expect(list.data.users.map((u) => u.email)).not.toContain(email);
  });

  it('keeps the earlier code valid when a new one could not be sent', async () => {
    const email = await confirmedUser();
    expect((await askForLink(email)).status).toBe(200);
    const first = JSON.parse(calls[0]!.body).email_data.token as string;
    behave = (res) => res.writeHead(500).end();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await askForLink(email)).status).toBe(500);
    const verified = await client(emu, emu.keys.anon).auth.verifyOtp({
      email,
      token: first,
      type: 'email',
    });
    expect(verified.error).toBeNull();
  });

  it('a hook that does not answer within 5 s is 422 hook_timeout', async () => {
    const started = Date.now();
    const result = await refusal(
      () => undefined,
      async () => askForLink(await confirmedUser()),
    );
    expect(result).toEqual({
      status: 422,
      body: {
        code: 'hook_timeout',
        message: 'Failed to reach hook within maximum time of 5.000000 seconds',
      },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  }, 15_000);

  it('a hook that cannot be reached is tried 3 times, 2 s apart, then hook_timeout_after_retry', async () => {
    const started = Date.now();
    const result = await refusal(
      (res) => res.socket?.destroy(),
      async () => askForLink(await confirmedUser()),
    );
    expect(result).toEqual({
      status: 422,
      body: {
        code: 'hook_timeout_after_retry',
        message: 'Failed to reach hook after maximum retries',
      },
    });
    expect(calls).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3900);
  }, 15_000);
});
