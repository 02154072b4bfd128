// SPEC §5's email rule exists twice: lib/email.ts (site and functions) and private.is_valid_email
// (the database's check). They must accept exactly the same addresses, at every length limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { isValidNormalizedEmail } from '../../lib/email';
import { sql, startFunctionsEmulator } from '../functions/kit';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startFunctionsEmulator();
}, 120_000);

afterAll(async () => {
  await emu?.stop();
});

const a = (n: number) => 'a'.repeat(n);

const addresses = [
  'ada@example.com',
  'first.last+tag@sub.example.co.uk',
  "o'hara!#$%&*/=?^_`{|}~-@example.org",
  'x@a.io',
  'x@1-2.example.com',
  `${a(64)}@example.com`,
  `${a(65)}@example.com`,
  `x@${a(63)}.com`,
  `x@${a(64)}.com`,
  `x@example.${a(63)}`,
  `x@example.${a(64)}`,
  `x@${a(62)}b-${a(1)}.com`,
  `x@${a(30)}-${a(33)}.com`,
  `x@${a(30)}-${a(32)}.com`,
  `x@${a(60)}.${a(60)}.${a(60)}.${a(60)}.com`,
  `${a(64)}@${a(63)}.${a(63)}.${a(57)}.io`,
  `${a(64)}@${a(63)}.${a(63)}.${a(58)}.io`,
  'x@-example.com',
  'x@example-.com',
  'x@example..com',
  'x@.example.com',
  'x@example.c',
  'x@example.c0m',
  'x@example.com.',
  'x@localhost',
  '.x@example.com',
  'x.@example.com',
  'x..y@example.com',
  'x@y@example.com',
  '@example.com',
  'x@',
  'x y@example.com',
  'x@exa_mple.com',
  '',
];

describe('the email rule in SQL and in lib/email.ts', () => {
  it('accepts and refuses the same addresses', async () => {
    const rows = await sql<{ email: string; ok: boolean }>(
      emu,
      `select e as email, private.is_valid_email(e) as ok from unnest($1::text[]) as e`,
      [addresses],
    );
    const sqlSays = Object.fromEntries(rows.map((r) => [r.email, r.ok]));
    const libSays = Object.fromEntries(addresses.map((e) => [e, isValidNormalizedEmail(e)]));
    expect(sqlSays).toEqual(libSays);
    // The limits are really exercised: both sides accept and refuse at each.
    expect(libSays[`x@${a(63)}.com`]).toBe(true);
    expect(libSays[`x@${a(64)}.com`]).toBe(false);
    expect(libSays[`x@example.${a(63)}`]).toBe(true);
    expect(libSays[`x@example.${a(64)}`]).toBe(false);
  });
});
