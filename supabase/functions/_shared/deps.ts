// Third-party modules of the edge functions, pinned in one place (npm: specifiers work on hosted
// Supabase and under the emulator's Deno alike).
export { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1';
export { default as nodemailer } from 'npm:nodemailer@10.6.0';
export * as qp from 'npm:nodemailer@10.6.0/lib/qp';
export { default as SMTPConnection } from 'npm:nodemailer@10.6.0/lib/smtp-connection';
// Campaign rendering: Markdown to HTML, then a sanitiser that keeps only safe tags and URLs.
export { marked, Lexer, type Token, type Tokens } from 'npm:marked@18.2.1';
export { default as sanitizeHtml } from 'npm:sanitize-html@2.18.1';
// Merge tags: Liquid, sandboxed (lib/email-render/merge-tags.ts).
export { Liquid, Tokenizer } from 'npm:liquidjs@10.30.1';
// CSV import: a streaming RFC 4180 parser (quoted fields, embedded newlines, BOM, byte offsets).
export {
  parse as parseCsv,
  type Parser as CsvParser,
  type Info as CsvInfo,
} from 'npm:csv-parse@7.0.3';
export { parse as parseCsvSync } from 'npm:csv-parse@7.0.3/sync';
