// Fixed ports of the end-to-end run (site + emulator), imported by playwright.config.ts and scripts/test.ts.
// They sit next to the local stack's 5432x/3000 ports so an e2e run never collides with `npm run dev`.

/** The exported site in `out/`, served by scripts/serve-static.ts. */
export const E2E_SITE_PORT = 55300;
/** The in-memory emulator's API gateway; the site must be built against it (see playwright.config.ts). */
export const E2E_API_PORT = 55321;
/** PGlite's Postgres wire server, where specs create their fixtures (E2E_DB_URL in the workers). */
export const E2E_DB_PORT = 55322;
/** The emulator's mail catcher (web/API and SMTP). */
export const E2E_MAIL_WEB_PORT = 55324;
export const E2E_MAIL_SMTP_PORT = 55325;

export const E2E_SITE_URL = `http://127.0.0.1:${E2E_SITE_PORT}`;
/** What `NEXT_PUBLIC_SUPABASE_URL` is set to for the e2e build. */
export const E2E_SUPABASE_URL = `http://127.0.0.1:${E2E_API_PORT}`;
