// The SPEC §5 email rule, the same module the site uses (lib/email.ts has no imports for this reason).
export * from '../../../lib/email.ts';
