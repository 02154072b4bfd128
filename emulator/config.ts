// Reads supabase/config.toml (the Supabase CLI's format) into the settings the emulator's services use.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { JWK } from 'jose';
import { parse } from 'smol-toml';
import { sendEmailHookFromToml, type SendEmailHookConfig } from './auth/hook-config.js';
import { parseSigningKeys } from './signing-keys.js';

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  enableSignup: boolean;
  enableAnonymousSignIns: boolean;
  minimumPasswordLength: number;
  emailEnableSignup: boolean;
  emailConfirmations: boolean;
  /**
   * `[auth.sms] enable_confirmations` (off by default, as the CLI: SMS autoconfirm). No SMS is
   * ever sent; with it off a phone change applies at once, as upstream's autoconfirm.
   */
  smsConfirmations: boolean;
  /** `[auth.email] secure_password_change`: a password change needs a recent session or a nonce. */
  securePasswordChange: boolean;
  /**
   * `[auth.email] double_confirm_changes` (GoTrue's secure email change): an email change mails
   * both addresses and, with confirmations on, applies once both links are used.
   */
  doubleConfirmChanges: boolean;
  /** `[auth.mfa.totp] enroll_enabled` / `verify_enabled` and `[auth.mfa] max_enrolled_factors`. */
  mfa: { totpEnroll: boolean; totpVerify: boolean; maxEnrolledFactors: number };
  otpLength: number;
  otpExpiry: number;
  /** `[auth] signing_keys_path`'s JWKs (first signs), or null for HS256 with the secret only. */
  signingKeys: JWK[] | null;
  /** `[auth.hook.send_email]` when enabled: Auth's emails go to that hook instead of SMTP. */
  sendEmailHook: SendEmailHookConfig | null;
}

export interface ProjectConfig {
  projectId: string;
  api: {
    schemas: string[];
    extraSearchPath: string[];
    maxRows: number;
    /** `[api] auto_expose_new_tables`: the pre-2026 default grants on new public objects. */
    autoExposeNewTables: boolean;
  };
  auth: AuthSettings;
  /** Per-function settings from `[functions.<name>]`; `verify_jwt` defaults to true. */
  functions: Record<string, { verifyJwt: boolean }>;
  seedEnabled: boolean;
  /** `[storage] file_size_limit` in bytes: the global upload limit every bucket is capped by. */
  storageFileSizeLimit: number;
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {};
}
function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
function num(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
function strings(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;
}

/** The CLI's size strings ("50MiB", "500MB"; binary units as its go-units parser); 50 MiB by default. */
function sizeInBytes(value: unknown): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(
    typeof value === 'string' ? value.trim() : '',
  );
  if (!match) return 50 * 1024 * 1024;
  const power = ['', 'k', 'm', 'g'].indexOf(match[2]!.toLowerCase());
  return Math.round(Number(match[1]) * 1024 ** power);
}

/** Turns parsed TOML into settings, filling in the CLI's local defaults for anything absent. */
export function projectConfigFromToml(doc: Table): ProjectConfig {
  const api = table(doc.api);
  const auth = table(doc.auth);
  const email = table(auth.email);
  const functionsTable = table(doc.functions);
  const functions: ProjectConfig['functions'] = {};
  for (const [name, value] of Object.entries(functionsTable)) {
    functions[name] = { verifyJwt: bool(table(value).verify_jwt, true) };
  }
  return {
    projectId: str(doc.project_id, 'postbox'),
    api: {
      schemas: strings(api.schemas, ['public', 'graphql_public']),
      extraSearchPath: strings(api.extra_search_path, ['public', 'extensions']),
      maxRows: num(api.max_rows, 1000),
      autoExposeNewTables: bool(api.auto_expose_new_tables, false),
    },
    auth: {
      siteUrl: str(auth.site_url, 'http://127.0.0.1:3000'),
      additionalRedirectUrls: strings(auth.additional_redirect_urls, []),
      jwtExpiry: num(auth.jwt_expiry, 3600),
      refreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
      refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
      enableSignup: bool(auth.enable_signup, true),
      enableAnonymousSignIns: bool(auth.enable_anonymous_sign_ins, false),
      minimumPasswordLength: num(auth.minimum_password_length, 6),
      emailEnableSignup: bool(email.enable_signup, true),
      emailConfirmations: bool(email.enable_confirmations, false),
      smsConfirmations: bool(table(auth.sms).enable_confirmations, false),
      securePasswordChange: bool(email.secure_password_change, false),
      doubleConfirmChanges: bool(email.double_confirm_changes, true),
      mfa: {
        totpEnroll: bool(table(table(auth.mfa).totp).enroll_enabled, false),
        totpVerify: bool(table(table(auth.mfa).totp).verify_enabled, false),
        maxEnrolledFactors: num(table(auth.mfa).max_enrolled_factors, 10),
      },
      otpLength: num(email.otp_length, 6),
      otpExpiry: num(email.otp_expiry, 3600),
      signingKeys: null,
      sendEmailHook: sendEmailHookFromToml(doc),
    },
    functions,
    seedEnabled: bool(table(table(doc.db).seed).enabled, true),
    storageFileSizeLimit: sizeInBytes(table(doc.storage).file_size_limit),
  };
}

export async function loadProjectConfig(path: string): Promise<ProjectConfig> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const doc = parse(text) as Table;
  const config = projectConfigFromToml(doc);
  // As the CLI: the path is relative to supabase/ (config.toml's folder); a bad file stops start.
  const keysPath = table(doc.auth).signing_keys_path;
  if (typeof keysPath === 'string' && keysPath) {
    const full = resolve(dirname(path), keysPath);
    let keysText: string;
    try {
      keysText = await readFile(full, 'utf8');
    } catch (err) {
      throw new Error(`failed to read signing keys ${full}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    config.auth.signingKeys = parseSigningKeys(keysText, full);
  }
  return config;
}
