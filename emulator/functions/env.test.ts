// Unit tests: the environment a function process gets.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFunctionEnv, platformVariables, readDotenv } from './env.js';

const platform = platformVariables({
  url: 'http://127.0.0.1:5555',
  anonKey: 'anon.jwt',
  serviceRoleKey: 'service.jwt',
  publishableKey: 'sb_publishable_x',
  secretKey: 'sb_secret_y',
  dbUrl: 'postgres://db',
});

describe('platformVariables (contract §5.2)', () => {
  it('sets the hosted variables, new keys as JSON dicts', () => {
    expect(platform).toEqual({
      SUPABASE_URL: 'http://127.0.0.1:5555',
      SUPABASE_ANON_KEY: 'anon.jwt',
      SUPABASE_SERVICE_ROLE_KEY: 'service.jwt',
      SUPABASE_PUBLISHABLE_KEYS: '{"default":"sb_publishable_x"}',
      SUPABASE_SECRET_KEYS: '{"default":"sb_secret_y"}',
      SUPABASE_DB_URL: 'postgres://db',
    });
  });
  it('leaves SUPABASE_DB_URL out when the emulator exposes no database URL', () => {
    const vars = platformVariables({
      url: 'u',
      anonKey: 'a',
      serviceRoleKey: 's',
      publishableKey: 'p',
      secretKey: 'k',
      dbUrl: null,
    });
    expect(vars).not.toHaveProperty('SUPABASE_DB_URL');
  });
});

describe('buildFunctionEnv', () => {
  it('merges host pass-through, secrets and platform variables', () => {
    const { env, skipped } = buildFunctionEnv({
      host: {
        HOME: '/root',
        PATH: '/bin',
        POSTBOX_MODE: 'test',
        DENO_DIR: '/cache',
        AWS_SECRET: 'host-only',
        UNSET: undefined,
      },
      secrets: { RESEND_API_KEY: 're_123', POSTBOX_MODE: 'from-dotenv' },
      platform,
    });
    expect(env).toMatchObject({
      HOME: '/root',
      PATH: '/bin',
      DENO_DIR: '/cache',
      RESEND_API_KEY: 're_123',
      POSTBOX_MODE: 'from-dotenv',
      SUPABASE_URL: 'http://127.0.0.1:5555',
      NO_COLOR: '1',
    });
    expect(env).not.toHaveProperty('AWS_SECRET');
    expect(env).not.toHaveProperty('UNSET');
    expect(skipped).toEqual([]);
  });

  it("lets the emulator's own facts win over .env, and the platform over both", () => {
    const { env } = buildFunctionEnv({
      host: { POSTBOX_SMTP_PORT: '1' },
      secrets: { POSTBOX_SMTP_PORT: '54325' },
      emulator: { POSTBOX_SMTP_PORT: '40001', SUPABASE_URL: 'http://wrong' },
      platform,
    });
    expect(env.POSTBOX_SMTP_PORT).toBe('40001');
    expect(env.SUPABASE_URL).toBe('http://127.0.0.1:5555');
  });

  it('never lets .env override the SUPABASE_* variables', () => {
    const { env, skipped } = buildFunctionEnv({
      host: {},
      secrets: { SUPABASE_URL: 'http://evil', SUPABASE_EXTRA: 'x', OK: 'y' },
      platform,
    });
    expect(env.SUPABASE_URL).toBe('http://127.0.0.1:5555');
    expect(env).not.toHaveProperty('SUPABASE_EXTRA');
    expect(env.OK).toBe('y');
    expect(skipped).toEqual(['SUPABASE_URL', 'SUPABASE_EXTRA']);
  });
});

describe('readDotenv', () => {
  it('parses dotenv syntax and treats a missing file as empty', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fn-env-'));
    try {
      const file = join(dir, '.env');
      expect(await readDotenv(file)).toEqual({});
      await writeFile(file, '# secrets\nA=1\nB="two words"\nexport C=3\nD=x # note\n');
      expect(await readDotenv(file)).toEqual({ A: '1', B: 'two words', C: '3', D: 'x' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
