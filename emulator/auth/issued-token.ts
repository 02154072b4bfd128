// An email token Auth just issued (flows.ts makes it, hook-outbox.ts mails it through the hook),
// in a module of its own so those two do not import each other.

/** The code, its stored hash, the verify link and where the link lands. */
export interface IssuedToken {
  otp: string;
  hashedToken: string;
  link: string;
  redirectTo: string;
}
