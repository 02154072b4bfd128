// `npm run dev` options: the site's and the API's ports, and the site URL that follows from them.
import { parseArgs } from 'node:util';

export const DEV_USAGE = `Usage: npm run dev -- [--port N] [--api-port N]
  --port N      the site (next dev) on http://127.0.0.1:N (default 3000); the site URL in emails,
                Auth's site_url and its allowed redirect URLs follow it
  --api-port N  the Supabase-compatible API on http://127.0.0.1:N (default 54321)`;

export interface DevOptions {
  sitePort: number;
  apiPort: number;
  /** Where next dev serves the site: POSTBOX_SITE_URL of the functions and Auth's site_url. */
  siteUrl: string;
  help: boolean;
}

/** A usage mistake: the message goes to the terminal with DEV_USAGE, exit code 2. */
export class DevUsageError extends Error {}

function port(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) {
    throw new DevUsageError(`--${name} must be a port number from 1 to 65535, not "${value}"`);
  }
  return n;
}

export function parseDevArgs(args: string[]): DevOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        'api-port': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    throw new DevUsageError((err as Error).message);
  }
  const sitePort = port(values.port, 'port', 3000);
  const apiPort = port(values['api-port'], 'api-port', 54321);
  if (sitePort === apiPort) {
    throw new DevUsageError(`--port and --api-port must differ (both are ${sitePort})`);
  }
  return { sitePort, apiPort, siteUrl: `http://127.0.0.1:${sitePort}`, help: values.help };
}
