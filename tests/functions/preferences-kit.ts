// The subscriber both preferences test files start from: a fresh address, the given subscriptions
// and the preferences token their emails would carry.
import type { RunningEmulator } from '../../emulator/index';
import { createSubscriber, signTestToken } from './kit';

export interface Person {
  id: string;
  email: string;
  token: string;
}

/** A fresh subscriber with the given subscriptions ({slug: status}) and their preferences token. */
export async function preferencesPerson(
  emu: RunningEmulator,
  subscriptions: Record<string, string> = {},
  options: { status?: 'blocklisted'; name?: string; referredBy?: Person } = {},
): Promise<Person> {
  const { id, email } = await createSubscriber(emu, subscriptions, {
    ...options,
    tag: 'prefs',
    attributes: { plan: 'pro' },
  });
  return { id, email, token: signTestToken({ p: 'preferences', s: id }) };
}
