// The signed-in team member's Supabase auth session, kept current through onAuthStateChange.
import type { Session } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { supabase } from './supabase';

export type SessionState =
  | { status: 'loading'; session: null }
  | { status: 'signed-out'; session: null }
  | { status: 'signed-in'; session: Session };

function stateOf(session: Session | null): SessionState {
  return session ? { status: 'signed-in', session } : { status: 'signed-out', session: null };
}

export function useSession(): SessionState {
  const [state, setState] = useState<SessionState>({ status: 'loading', session: null });

  useEffect(() => {
    let active = true;
    // getSession waits for supabase-js to finish reading storage (and any code in the URL).
    supabase.auth.getSession().then(({ data }) => {
      if (active) setState(stateOf(data.session));
    });
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      if (!active) return;
      // A token refresh hands out a new object for the same user: keep the old one so hooks keyed
      // on the user id do not refetch every hour.
      setState((prev) =>
        prev.session && session && prev.session.user.id === session.user.id
          ? prev.session.access_token === session.access_token
            ? prev
            : stateOf(session)
          : stateOf(session),
      );
    });
    return () => {
      active = false;
      data.subscription.unsubscribe();
    };
  }, []);

  return state;
}

/** Ends the session on this device (scope local: other devices of the member stay signed in). */
export async function signOut(): Promise<void> {
  const { error } = await supabase.auth.signOut({ scope: 'local' });
  if (error) throw error;
}

/** Where to go after signing in: a same-site path from `?next=`, else the dashboard. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return '/admin/';
  // A backslash or a control character could turn a path into another origin in some browsers.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 32)) return '/admin/';
  if (next.startsWith('/login') || next.startsWith('/auth/')) return '/admin/';
  return next;
}

/** `${origin}/auth/callback/?next=…`: where the emailed link comes back to. */
export function callbackUrl(origin: string, next: string): string {
  const target = safeNext(next);
  const query = target === '/admin/' ? '' : `?next=${encodeURIComponent(target)}`;
  return `${origin}/auth/callback/${query}`;
}

export type CallbackParams =
  | { kind: 'code'; code: string; next: string }
  | { kind: 'tokens'; accessToken: string; refreshToken: string; next: string }
  | { kind: 'error'; message: string; code: string | null; next: string }
  | { kind: 'none'; next: string };

/**
 * What Auth put on `/auth/callback/`: `?code=` (PKCE), `#access_token=…&refresh_token=…` (the
 * implicit flow, e.g. a link made by an older client), or `error_description` in the query (PKCE)
 * or the fragment (implicit), as GoTrue redirects.
 */
export function parseCallback(href: string): CallbackParams {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const query = url.searchParams;
  const next = safeNext(query.get('next'));
  const description = query.get('error_description') ?? hash.get('error_description');
  const errorName = query.get('error') ?? hash.get('error');
  if (description || errorName) {
    return {
      kind: 'error',
      message: (description ?? errorName ?? '').replace(/\+/g, ' '),
      code: query.get('error_code') ?? hash.get('error_code'),
      next,
    };
  }
  const code = query.get('code');
  if (code) return { kind: 'code', code, next };
  const accessToken = hash.get('access_token');
  const refreshToken = hash.get('refresh_token');
  if (accessToken && refreshToken) return { kind: 'tokens', accessToken, refreshToken, next };
  return { kind: 'none', next };
}

/** A sign-in failure as the login and callback pages show it. */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

function authMessage(error: {
  name?: string;
  message?: string;
  code?: string;
  status?: number;
}): SignInError {
  const code = error.code ?? null;
  switch (code) {
    case 'invalid_credentials':
      return new SignInError('That email and password do not match.', code);
    case 'over_email_send_rate_limit':
    case 'over_request_rate_limit':
      return new SignInError('Too many attempts. Try again in a minute.', code);
    case 'otp_expired':
      return new SignInError('This sign-in link has expired or was already used.', code);
    case 'email_address_invalid':
    case 'validation_failed':
      return new SignInError('Enter a valid email address.', code);
    case 'flow_state_not_found':
    case 'flow_state_expired':
    case 'bad_code_verifier':
      return new SignInError(
        'This link was opened in a different browser or has expired. Request a new one here.',
        code,
      );
  }
  if (error.name === 'AuthPKCECodeVerifierMissingError') {
    return new SignInError(
      'Open the sign-in link in the same browser where you asked for it, or request a new one.',
      'pkce_verifier_missing',
    );
  }
  // supabase-js reports a network failure as AuthRetryableFetchError with status 0.
  if (error.name === 'AuthRetryableFetchError' || !error.status) {
    return new SignInError('We could not reach the server. Check your connection and try again.');
  }
  return new SignInError(error.message || 'Signing in failed. Try again.', code);
}

/** Emails a magic link (PKCE) that comes back to /auth/callback/ and then goes to `next`. */
export async function sendMagicLink(email: string, next: string): Promise<void> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { emailRedirectTo: callbackUrl(window.location.origin, next) },
  });
  if (error) throw authMessage(error);
}

export async function signInWithPassword(email: string, password: string): Promise<void> {
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw authMessage(error);
}

/** Finishes the sign-in the emailed link started; resolves with where to go next. */
export async function completeSignIn(href: string): Promise<string> {
  const params = parseCallback(href);
  if (params.kind === 'error') {
    throw params.code
      ? authMessage({ code: params.code, message: params.message, status: 400 })
      : new SignInError(params.message);
  }
  if (params.kind === 'code') {
    const { error } = await supabase.auth.exchangeCodeForSession(params.code);
    if (error) throw authMessage(error);
  } else if (params.kind === 'tokens') {
    const { error } = await supabase.auth.setSession({
      access_token: params.accessToken,
      refresh_token: params.refreshToken,
    });
    if (error) throw authMessage(error);
  } else {
    // Opened without anything from Auth: fine when already signed in, else nothing to finish.
    const { data } = await supabase.auth.getSession();
    if (!data.session) {
      throw new SignInError(
        'This page finishes a sign-in from an emailed link, but no link was used.',
      );
    }
  }
  return params.next;
}
