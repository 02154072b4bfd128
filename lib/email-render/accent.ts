// The emails' accent colour (issue 21): the owner's choice for the header rule, buttons and links,
// accepted only when it stays readable — white button text on it and it as link text on white both
// need WCAG AA's 4.5:1. The same rule as the settings_accent_color_check constraint
// (20261128400000_email_branding.sql). Import-free (see merge-tags.ts).

export const DEFAULT_ACCENT = '#1f4fd1';
export const MIN_ACCENT_CONTRAST = 4.5;

const HEX = /^#[0-9a-f]{6}$/;

/** `#ABC`, `abc123`, ` #AbC123 ` → `#aabbcc` / `#abc123`; anything else as typed (trimmed). */
export function normalizeAccent(value: string): string {
  let hex = value.trim().toLowerCase();
  if (!hex.startsWith('#')) hex = `#${hex}`;
  if (/^#[0-9a-f]{3}$/.test(hex)) hex = `#${[...hex.slice(1)].map((c) => c + c).join('')}`;
  return HEX.test(hex) ? hex : value.trim();
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 contrast ratio of a `#rrggbb` colour against white (1 to 21). */
export function contrastWithWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16)));
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return 1.05 / (luminance + 0.05);
}

/** Why a colour cannot be the accent, or null when it can (expects normalizeAccent's output). */
export function accentProblem(hex: string): string | null {
  if (!HEX.test(hex)) return 'Enter a colour as #rrggbb, for example #1f4fd1.';
  const ratio = contrastWithWhite(hex);
  if (ratio < MIN_ACCENT_CONTRAST)
    return (
      `This colour is too light for white button text and links on white ` +
      `(contrast ${ratio.toFixed(1)}:1, at least ${MIN_ACCENT_CONTRAST}:1 is needed). Choose a darker shade.`
    );
  return null;
}

/** The accent a layout uses: the setting when it is valid and readable, else the default. */
export function safeAccent(value: string | null | undefined): string {
  const hex = normalizeAccent(value ?? '');
  return accentProblem(hex) === null ? hex : DEFAULT_ACCENT;
}
