// A team member's own password (issue 23): "Use a password instead" on /login/ is offered only
// with a way to set one (Settings → Your password, Auth's updateUser) and to reset a forgotten one
// (an emailed recovery link that signs in and opens that card).
import { authMessage, callbackUrl, SignInError } from '../sign-in';
import { supabase } from '../supabase';

/** Auth's own minimum is 6; the card asks for a little more. */
export const MIN_PASSWORD_LENGTH = 8;

/** Where a recovery link lands once it has signed the member in. */
export const PASSWORD_CARD_PATH = '/admin/settings/';

export async function sendPasswordReset(email: string): Promise<void> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: callbackUrl(window.location.origin, PASSWORD_CARD_PATH),
  });
  if (error) throw authMessage(error);
}

/** What is wrong with a new password and its repetition, or null. */
export function passwordProblem(password: string, again: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password !== again) return 'The two passwords are not the same.';
  return null;
}

export async function setOwnPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (!error) return;
  if (error.code === 'same_password') {
    throw new SignInError('That is your current password. Choose a new one.', error.code);
  }
  if (error.code === 'weak_password') {
    throw new SignInError('Choose a longer password.', error.code);
  }
  throw authMessage(error);
}
