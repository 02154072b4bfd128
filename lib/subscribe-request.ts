// One signup as the form sends it: the rules of SPEC §5 checked, the `subscribe` function called as
// the anon role, and its answer read. Loaded on demand by lib/use-subscribe.ts (when the form is
// first touched), so the signup pages do not download it before anyone signs up.
import { publicFunctions } from './public-functions';
import {
  prepareSubscribe,
  readSubscribeResult,
  type SubscribeInput,
  type SubscribeOutcome,
} from './subscribe';

export async function sendSubscribe(
  input: SubscribeInput,
  /** Called once the input passed the checks, just before the request goes out. */
  onSending: () => void = () => undefined,
): Promise<SubscribeOutcome> {
  const prepared = prepareSubscribe(input);
  if (!prepared.ok) return prepared;
  onSending();
  return readSubscribeResult(await publicFunctions.invoke('subscribe', { body: prepared.body }));
}
