// Masks an address for the unsubscribe page ("a***@example.com"): the link may have been forwarded,
// so the page confirms whose subscription it is without spelling the address out.
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
