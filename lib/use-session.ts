// The signed-in team member's Supabase auth session, kept current through onAuthStateChange.
import type { Session } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { authMessage, callbackUrl, isUnknownAccount, parseCallback, SignInError } from './sign-in';
import { supabase } from './supabase';

export { safeNext, SignInError } from './sign-in';

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

/**
 * Emails a magic link (PKCE) that comes back to /auth/callback/ and then goes to `next`. Sign-ups
 * are closed (SPEC §6), so Auth mails existing accounts only; when it refuses an unknown address,
 * claim-owner is asked to make the owner's account (it does so for POSTBOX_OWNER_EMAIL only, on its
 * first sign-in) and Auth is asked once more.
 */
export async function sendMagicLink(email: string, next: string): Promise<void> {
  const send = () =>
    supabase.auth.signInWithOtp({
      email,
      options: {
        emailRedirectTo: callbackUrl(window.location.origin, next),
        shouldCreateUser: false,
      },
    });
  let { error } = await send();
  if (error && isUnknownAccount(error)) {
    const prepared = await supabase.functions.invoke('claim-owner', {
      body: { action: 'prepare', email },
    });
    if (!prepared.error) ({ error } = await send());
  }
  if (error) throw authMessage(error);
}

/**
 * Signs in with the 6-digit code of the emailed sign-in (Auth's OTP). Unlike the link, which is
 * tied to this browser's PKCE verifier, the code works whichever device the email was read on.
 */
export async function verifyEmailCode(email: string, code: string): Promise<void> {
  const { error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
  if (!error) return;
  if (error.code === 'otp_expired') {
    throw new SignInError(
      'That code is not right or has expired. Check the latest email, or send a new one.',
      error.code,
    );
  }
  throw authMessage(error);
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
