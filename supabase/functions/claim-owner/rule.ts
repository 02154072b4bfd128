// Who may claim ownership (pure, so vitest tests it too): the configured owner address, confirmed.
export function isOwnerClaim(
  user: { email?: string | null; email_confirmed_at?: string | null },
  ownerEmail: string,
): boolean {
  const email = (user.email ?? '').trim().toLowerCase();
  return email !== '' && email === ownerEmail.trim().toLowerCase() && !!user.email_confirmed_at;
}
