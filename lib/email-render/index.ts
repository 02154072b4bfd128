// The shared email renderer: one import for the site (lib/email-render/site.ts) and the edge
// functions (supabase/functions/_shared/campaign-render.ts), which pass in their own libraries.
export * from './campaign.ts';
export * from './layout.ts';
export * from './inline-css.ts';
export * from './liquid-source.ts';
export * from './merge-tags.ts';
export * from './accent.ts';
export * from './branding.ts';
export * from './system-emails.ts';
