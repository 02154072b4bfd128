// The `supabase status`-style summary printed when the emulator is ready.
import type { RunningEmulator } from './start.js';

export function banner(emu: RunningEmulator): string {
  const rows: Array<[string, string]> = [
    ['API URL', emu.url],
    ['REST URL', `${emu.url}/rest/v1`],
    ['Functions URL', `${emu.url}/functions/v1`],
    ['DB URL', emu.dbUrl ?? '(wire protocol off)'],
    ['Mail URL', emu.mail?.url ?? '(off)'],
    ['SMTP port', emu.mail ? String(emu.mail.smtpPort) : '(off)'],
    ['JWT secret', emu.keys.jwtSecret],
    ['anon key', emu.keys.anon],
    ['service_role key', emu.keys.serviceRole],
    ['Publishable key', emu.keys.publishable],
    ['Secret key', emu.keys.secret],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    'Postbox emulator is running.',
    '',
    ...rows.map(([l, v]) => `  ${l.padStart(width)}: ${v}`),
  ].join('\n');
}
