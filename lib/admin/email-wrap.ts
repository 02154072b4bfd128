// Where an email address may wrap in the admin (issue 23): only after a separator, never inside a word.

/** The address cut after each separator, e.g. "ada.l@example.com" → ["ada.", "l@", "example.", "com"]. */
export function emailParts(email: string): string[] {
  return email.match(/[^@.\-_+]*[@.\-_+]?/g)?.filter((part) => part !== '') ?? [email];
}
