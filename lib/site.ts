// What the public pages say about the site until they read it from the `settings` row (SPEC §3).
export const SITE_DEFAULTS = {
  name: 'Postbox',
  tagline: 'Short, useful letters about building for the web. One email a fortnight, no noise.',
} as const;
