// The subscribe flow's pure rules: what the form may send (SPEC §5) and how an answer of the
// `subscribe` edge function (SPEC §7, §8) becomes what the form shows.
import { checkEmail } from './email';
import { isRecord, readFunctionResult, type InvokeResult } from './functions';
import { MESSAGES, NAME_MAX_LENGTH } from './subscribe-messages';

export type { InvokeResult };

export { MESSAGES, NAME_MAX_LENGTH } from './subscribe-messages';

/**
 * A name's length as SPEC §5 and SQL's char_length count it: in characters (code points), not
 * UTF-16 units, so an emoji is one character, not two.
 */
export function nameLength(name: string): number {
  return [...name].length;
}

export interface SubscribeInput {
  email: string;
  name?: string;
  /** Slugs of the chosen lists; omitted, the function uses the main list. */
  lists?: string[];
  /** Referral code from a share link (`/?ref=<code>&list=<slug>`). */
  ref?: string;
  /** The honeypot: people never see it, bots fill it in. */
  website?: string;
}

/** The request body of `POST /functions/v1/subscribe`. */
export interface SubscribeBody {
  email: string;
  name?: string;
  lists?: string[];
  ref?: string;
  website?: string;
}

export type SubscribeOutcome =
  | { ok: true; status: 'pending' | 'confirmed' }
  | { ok: false; code: string; field: 'email' | 'name' | 'lists' | null; message: string };

type Failure = Extract<SubscribeOutcome, { ok: false }>;

function fail(code: string, message: string, field: Failure['field'] = null): Failure {
  return { ok: false, code, field, message };
}

// C0 controls, DEL and C1 controls (SPEC §5: a name has no control characters).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The name rule of SPEC §5 as the functions apply it, on the trimmed name: a message, or null. */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (nameLength(trimmed) > NAME_MAX_LENGTH) return MESSAGES.name_too_long;
  if (CONTROL.test(trimmed)) return MESSAGES.name_control;
  return null;
}

/** Checks the form's values as the function will (SPEC §5) and builds the request body. */
export function prepareSubscribe(
  input: SubscribeInput,
): { ok: true; body: SubscribeBody } | Failure {
  const email = checkEmail(input.email);
  if (!email.ok) return fail('invalid_email', MESSAGES.invalid_email, 'email');
  const name = (input.name ?? '').trim();
  const problem = nameProblem(name);
  if (problem) return fail('invalid_input', problem, 'name');
  if (input.lists && input.lists.length === 0)
    return fail('invalid_input', MESSAGES.no_lists, 'lists');
  const body: SubscribeBody = { email: email.email };
  if (name) body.name = name;
  if (input.lists) body.lists = [...new Set(input.lists)];
  const ref = (input.ref ?? '').trim();
  if (ref) body.ref = ref;
  // Sent as typed: the function answers a filled honeypot like any signup and changes nothing.
  if (input.website) body.website = input.website;
  return { ok: true, body };
}

/** Turns the invoke result into the outcome the form shows; never reports success it did not get. */
export async function readSubscribeResult(result: InvokeResult): Promise<SubscribeOutcome> {
  const outcome = await readFunctionResult(result, parseSubscribeAnswer, {
    notDeployed: MESSAGES.not_open,
    unreachable: MESSAGES.unreachable,
  });
  if (outcome.ok) return { ok: true, status: outcome.data.status };
  const code = outcome.code === 'not_deployed' ? 'not_open' : outcome.code;
  // SPEC §8: show the catalogue message next to the field it concerns.
  return fail(code, outcome.message, formField(outcome.code, outcome.field));
}

function parseSubscribeAnswer(data: unknown): { status: 'pending' | 'confirmed' } | null {
  const status = isRecord(data) ? data.status : undefined;
  return status === 'pending' || status === 'confirmed' ? { status } : null;
}

function formField(code: string, field: string | null): Failure['field'] {
  if (code === 'invalid_email' || field === 'email') return 'email';
  if (field === 'name') return 'name';
  if (code === 'list_not_found' || field === 'lists') return 'lists';
  return null;
}
