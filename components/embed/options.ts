// The embed page's query options (`/embed/?list=&button=&theme=`), read by the page and written
// by the admin's Share & embed page, and the message the page sends its host with its height.
export type EmbedTheme = 'auto' | 'light' | 'dark';

export const EMBED_THEMES: readonly EmbedTheme[] = ['auto', 'light', 'dark'];
export const DEFAULT_BUTTON_TEXT = 'Subscribe';
export const MAX_BUTTON_TEXT = 40;
/** `{type, height}` posted to the parent page whenever the form's height changes. */
export const EMBED_HEIGHT_MESSAGE = 'postbox:embed-height';

export interface EmbedOptions {
  list: string;
  buttonText: string;
  theme: EmbedTheme;
}

export function parseTheme(value: string | null | undefined): EmbedTheme {
  return EMBED_THEMES.includes(value as EmbedTheme) ? (value as EmbedTheme) : 'auto';
}

/** A usable button label: trimmed, one line, at most 40 characters; else the default. */
export function parseButtonText(value: string | null | undefined): string {
  const text = (value ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_BUTTON_TEXT).trim();
  return text || DEFAULT_BUTTON_TEXT;
}

/** `/embed/?list=…`, with `button` and `theme` only when they differ from the defaults. */
export function embedPath(options: EmbedOptions): string {
  const query = new URLSearchParams({ list: options.list });
  const button = parseButtonText(options.buttonText);
  if (button !== DEFAULT_BUTTON_TEXT) query.set('button', button);
  if (options.theme !== 'auto') query.set('theme', options.theme);
  return `/embed/?${query.toString()}`;
}
