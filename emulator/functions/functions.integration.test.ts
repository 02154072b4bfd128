// Edge functions as a client sees them: supabase-js `functions.invoke` and raw fetch against real Deno.
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import {
  client as supabaseClient,
  createFixtureProject,
  type FixtureProject,
} from './test-project.js';

let emu: RunningEmulator;
let project: FixtureProject;
const fn = (path: string) => `${emu.url}/functions/v1/${path}`;
const client = (key: string) => supabaseClient(emu.url, key);

beforeAll(async () => {
  project = await createFixtureProject(
    '# user secrets\nMY_SECRET="from dotenv"\nSUPABASE_URL=http://must-not-win.test\n',
  );
  process.env.POSTBOX_FIXTURE_FLAG = 'passed-through';
  process.env.AWS_SECRET_ACCESS_KEY = 'host-only';
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
    projectDir: project.dir,
    watchFunctions: true,
  });
});

afterAll(async () => {
  await emu?.stop();
  await project?.remove();
});

describe('invoke with supabase-js', () => {
  it('sends JSON in and gets JSON out with a legacy anon key (Bearer sent)', async () => {
    const { data, error } = await client(emu.keys.anon).functions.invoke('echo', {
      body: { hello: 'world' },
      headers: { 'x-custom': 'kept' },
    });
    expect(error).toBeNull();
    expect(data.method).toBe('POST');
    expect(data.path).toBe('/echo');
    expect(data.body).toEqual({ hello: 'world' });
    expect(data.headers['content-type']).toBe('application/json');
    expect(data.headers.authorization).toBe(`Bearer ${emu.keys.anon}`);
    expect(data.headers.apikey).toBe(emu.keys.anon);
    expect(data.headers['x-custom']).toBe('kept');
    expect(data.headers['x-client-info']).toMatch(/^supabase-js/);
    expect(data.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(data.headers['x-forwarded-proto']).toBe('http');
    expect(data.headers['x-forwarded-host']).toBe(new URL(emu.url).host);
  });

  it('answers 401 "Missing authorization header" to a publishable key on a verify_jwt function', async () => {
    const { data, error } = await client(emu.keys.publishable).functions.invoke('echo', {
      body: { hello: 'world' },
    });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    expect(res.status).toBe(401);
    expect(res.headers.get('sb-error-code')).toBe('UNAUTHORIZED_NO_AUTH_HEADER');
    expect(res.headers.get('x-relay-error')).toBeNull();
    expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' });
  });

  it('reaches a verify_jwt = false function with a publishable key (no Authorization sent)', async () => {
    const { data, error } = await client(emu.keys.publishable).functions.invoke('echo-public', {
      body: { n: 1 },
    });
    expect(error).toBeNull();
    expect(data.body).toEqual({ n: 1 });
    expect(data.headers.authorization).toBeUndefined();
    expect(data.headers.apikey).toBe(emu.keys.publishable);
  });

  it('passes the service_role JWT and user JWTs through verify_jwt', async () => {
    const { data, error } = await client(emu.keys.serviceRole).functions.invoke('echo', {
      method: 'GET',
    });
    expect(error).toBeNull();
    expect(data.method).toBe('GET');
  });

  it('supports GET, PUT, PATCH and DELETE', async () => {
    const supabase = client(emu.keys.anon);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const body = method === 'GET' ? undefined : { method };
      const { data, error } = await supabase.functions.invoke('echo', { method, body });
      expect(error).toBeNull();
      expect(data.method).toBe(method);
      expect(data.body).toEqual(body ?? null);
    }
  });
});

describe('signed-in callers', () => {
  it('sends the session token with a publishable key, and the function can ask Auth who called', async () => {
    const supabase = client(emu.keys.publishable);
    const email = `fn-${Date.now()}@example.test`;
    const { data: signUp, error: signUpError } = await supabase.auth.signUp({
      email,
      password: 'correct-horse-battery',
    });
    expect(signUpError).toBeNull();
    expect(signUp.session).not.toBeNull();
    const { data, error } = await supabase.functions.invoke('whoami');
    expect(error).toBeNull();
    expect(data).toEqual({ email, error: null });
  }, 120_000);
});

describe('verify_jwt', () => {
  it('rejects a token that does not verify', async () => {
    const forged = emu.keys.anon.slice(0, -6) + 'AAAAAA';
    const res = await fetch(fn('echo'), { headers: { Authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('sb-error-code')).toBe('UNAUTHORIZED_LEGACY_JWT');
    expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' });
  });

  it('rejects an opaque key sent as the bearer token', async () => {
    const res = await fetch(fn('echo'), {
      headers: { Authorization: `Bearer ${emu.keys.secret}`, apikey: emu.keys.secret },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('sb-error-code')).toBe('UNAUTHORIZED_INVALID_JWT_FORMAT');
    expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' });
  });

  it('forwards OPTIONS unverified and leaves CORS to the function', async () => {
    const res = await fetch(fn('echo'), {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, apikey, content-type',
      },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // The function's own value, not the gateway's `GET,POST,...,HEAD`.
    expect(res.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    );
    expect(res.headers.get('access-control-allow-headers')).toContain('x-client-info');
  });

  it('adds no CORS of its own to function responses', async () => {
    const res = await fetch(fn('default-export'), { headers: { Origin: 'http://a.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('routing', () => {
  it('gives the function its own name, the sub-path and the query', async () => {
    const res = await fetch(fn('echo-public/a/b?x=1&y=two%20words'));
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.url).toBe(`${emu.url}/echo-public/a/b?x=1&y=two%20words`);
    expect(data.path).toBe('/echo-public/a/b');
    expect(data.query).toEqual({ x: '1', y: 'two words' });
  });

  it('streams a large body through unchanged', async () => {
    const text = 'x'.repeat(2_000_000);
    const res = await fetch(fn('echo-public'), {
      method: 'POST',
      body: text,
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).body.length).toBe(text.length);
  });

  it('serves `export default { fetch }` modules', async () => {
    const res = await fetch(fn('default-export/x'));
    expect(await res.json()).toEqual({ style: 'default-export', path: '/default-export/x' });
  });

  it("applies the function's own deno.json import map", async () => {
    const res = await fetch(fn('mapped'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello from the import map');
  });

  it('answers 405 for methods hosted functions do not accept', async () => {
    for (const method of ['HEAD', 'PROPFIND']) {
      const res = await fetch(fn('echo-public'), { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    }
  });

  it('answers 404 NOT_FOUND for unknown functions and shared folders', async () => {
    for (const path of ['nope', '_shared/cors.ts', '', 'echo%2F..']) {
      const res = await fetch(fn(path), { headers: { Authorization: `Bearer ${emu.keys.anon}` } });
      expect(res.status).toBe(404);
      expect(res.headers.get('sb-error-code')).toBe('NOT_FOUND');
      expect(await res.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'Requested function was not found',
      });
    }
  });
});

describe('failures', () => {
  it('answers 503 BOOT_ERROR when the function cannot boot', async () => {
    for (const name of ['boot-error', 'bad-import', 'throws-at-import', 'no-serve']) {
      const res = await fetch(fn(name), { method: 'POST', body: '{}' });
      expect(res.status, name).toBe(503);
      expect(res.headers.get('sb-error-code')).toBe('BOOT_ERROR');
      expect(await res.json()).toEqual({
        code: 'BOOT_ERROR',
        message: 'Function failed to start (please check logs)',
      });
    }
  });

  it('answers a throwing handler with a 500 tagged EDGE_FUNCTION_ERROR and keeps the worker', async () => {
    const res = await fetch(fn('throws'));
    expect(res.status).toBe(500);
    expect(res.headers.get('sb-error-code')).toBe('EDGE_FUNCTION_ERROR');
    expect(await res.text()).toBe('Internal Server Error');
    const again = await fetch(fn('throws?ok'));
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('fine');
  });

  it('answers 500 WORKER_ERROR when the worker dies, then restarts it', async () => {
    const res = await fetch(fn('crash'));
    expect(res.status).toBe(500);
    expect(res.headers.get('sb-error-code')).toBe('WORKER_ERROR');
    expect(await res.json()).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    });
    const again = await fetch(fn('crash?ok'));
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('alive');
  });
});

describe('processes', () => {
  it('boots a cold function once for concurrent requests and keeps it warm', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => fetch(fn('pid'))));
    const pids = await Promise.all(answers.map(async (res) => (await res.json()).pid));
    expect(new Set(pids).size).toBe(1);
    expect((await (await fetch(fn('pid'))).json()).pid).toBe(pids[0]);
  });

  it('runs EdgeRuntime.waitUntil work after the response', async () => {
    const res = await fetch(fn('background'), { method: 'POST' });
    expect(res.status).toBe(202);
    expect(await (await fetch(fn('background'))).json()).toEqual({ finished: 0 });
    let finished = 0;
    for (let i = 0; i < 20 && finished === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      finished = (await (await fetch(fn('background'))).json()).finished;
    }
    expect(finished).toBe(1);
  });
});

describe('environment', () => {
  it('sets the platform variables, .env secrets, POSTBOX_* pass-through and the SMTP port', async () => {
    const res = await fetch(fn('env'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      SUPABASE_URL: emu.url,
      SUPABASE_ANON_KEY: emu.keys.anon,
      SUPABASE_SERVICE_ROLE_KEY: emu.keys.serviceRole,
      SUPABASE_DB_URL: emu.dbUrl,
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: emu.keys.publishable }),
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: emu.keys.secret }),
      MY_SECRET: 'from dotenv',
      POSTBOX_FIXTURE_FLAG: 'passed-through',
      POSTBOX_SMTP_HOST: '127.0.0.1',
      POSTBOX_SMTP_PORT: String(emu.mail!.smtpPort),
      POSTBOX_INTERNAL_FUNCTION_BOOT: null,
      AWS_SECRET_ACCESS_KEY: null,
      HOME: null,
      PATH: null,
    });
  });

  it('lets a function call back into the emulator through SUPABASE_URL', async () => {
    const res = await fetch(fn('callback'));
    expect(await res.json()).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('resolves npm: imports and calls another function with supabase-js', async () => {
    const res = await fetch(fn('npm-client'));
    expect(res.status).toBe(200);
    const { data, error } = await res.json();
    expect(error).toBeNull();
    expect(data.body).toEqual({ from: 'npm-client' });
    expect(data.headers.authorization).toBe(`Bearer ${emu.keys.anon}`);
  }, 120_000);
});
