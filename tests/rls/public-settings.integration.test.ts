// public_settings(): every visitor — anon, a signed-in stranger, any member — reads the same four
// public columns, and nothing else of the settings row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { ACTORS, createTeam, startIsolatedEmulator, type Team } from './team-kit';

let emu: RunningEmulator;
let team: Team;

beforeAll(async () => {
  emu = await startIsolatedEmulator();
  team = await createTeam(emu);
});
afterAll(async () => {
  await emu?.stop();
});

describe('public_settings()', () => {
  it.each(ACTORS)('answers the public identity to %s', async (actor) => {
    const { data, error } = await team.client(actor).rpc('public_settings').maybeSingle();
    expect(error).toBeNull();
    expect(data).toEqual({
      site_name: 'The Postbox Letter',
      tagline: expect.any(String),
      logo_path: null,
      show_subscriber_count: true,
    });
  });

  it('is what a signed-in non-member gets, while the table itself shows them no row', async () => {
    const direct = await team.client('nonMember').from('settings').select('site_name');
    expect(direct.error).toBeNull();
    expect(direct.data).toEqual([]);
  });
});
