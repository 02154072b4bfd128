// What an email Postbox sends may contain, checked against caniemail.com's support data
// (@jsx-email/doiuse-email) for Gmail, Outlook and Apple Mail: the features below are the only ones
// a client may not support, each a progressive enhancement whose absence leaves the email readable.
// Anything else a client does not support fails the check (tests/email/*.test.ts). Also our own
// rules that caniemail has no entry for. Test-only: the site and the functions never load it.
import { doIUseEmail } from '@jsx-email/doiuse-email';

/** Unsupported somewhere, allowed on purpose (why in each comment). */
export const ALLOWED_GAPS: readonly string[] = [
  // The phone padding only; the fluid 600 px table is the layout.
  '`@media`',
  // Outlook for Mac/iOS/Android replace <body>: its background is repeated on the outer table.
  '`<body> element`',
  // The preheader's hiding: at worst a client shows the preheader text once at the top.
  '`display:none`',
  '`overflow`',
  // role="presentation" on layout tables: ignored where unsupported.
  '`role attribute`',
  // Rounded corners on the card, buttons and code: square in Outlook for Windows.
  '`border-radius`',
  // `pre` wraps long lines where supported; Outlook for Windows keeps them long.
  '`white-space`',
  // A long link (a confirm token) breaks instead of widening the card on phones; Windows Mail, a
  // desktop client with the fixed 600 px column, keeps it on one line.
  '`word-break`',
];

const CLIENTS = ['gmail.*', 'outlook.*', 'apple-mail.*'];

/** caniemail's complaints about `html` that are not in ALLOWED_GAPS, deduplicated. */
export function caniemailProblems(html: string): string[] {
  const result = doIUseEmail(html, { emailClients: CLIENTS });
  const errors = (result as { errors?: string[] }).errors ?? [];
  return [...new Set(errors.filter((e) => !ALLOWED_GAPS.some((gap) => e.startsWith(gap))))];
}

/** `html` with juice's `style="a: b; c: d;"` written as `style="a:b;c:d"`, for readable assertions. */
export function compactStyles(html: string): string {
  return html.replace(
    /style="([^"]*)"/g,
    (_, style: string) =>
      `style="${style
        .replace(/\s*:\s*/g, ':')
        .replace(/\s*;\s*/g, ';')
        .replace(/;$/, '')}"`,
  );
}

/** Rules of our own, for things caniemail reports only as notes or not at all. */
export function layoutRuleProblems(html: string): string[] {
  const problems: string[] = [];
  const styles = [...html.matchAll(/style="([^"]*)"/g)].map((m) => m[1]!);
  for (const style of styles) {
    if (/display:\s*(flex|grid|inline-flex)/i.test(style)) problems.push(`flex/grid: ${style}`);
    if (/var\(--|--[a-z-]+:/i.test(style)) problems.push(`CSS variable: ${style}`);
    if (/position:\s*(absolute|fixed|sticky)/i.test(style)) problems.push(`position: ${style}`);
    if (/background-image|url\(/i.test(style)) problems.push(`background image: ${style}`);
  }
  for (const img of html.match(/<img\b[^>]*>/g) ?? []) {
    if (!/\salt="/.test(img)) problems.push(`image without alt: ${img}`);
    if (!/\s(width|height)="\d+"|max-width:\s*100%/.test(img))
      problems.push(`image without size: ${img}`);
  }
  // The only stylesheet is the phone media query; the layout's styles are all inline.
  const sheets = html.match(/<style\b[^>]*>[\s\S]*?<\/style>/g) ?? [];
  for (const sheet of sheets)
    if (!/^<style>@media[^{]*\{[^]*\}<\/style>$/.test(sheet)) problems.push(`stylesheet: ${sheet}`);
  if (/<(script|form|input|iframe|video|svg)\b/i.test(html)) problems.push('unsupported element');
  if (/<link\b[^>]*stylesheet/i.test(html)) problems.push('linked stylesheet');
  return problems;
}
