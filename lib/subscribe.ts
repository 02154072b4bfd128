// The subscribe flow's pure rules: what the form may send (SPEC §5) and how an answer of the
// `subscribe` edge function (SPEC §7, §8) becomes what the form shows.
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
} from '@supabase/supabase-js';
import { checkEmail } from './email';

export const NAME_MAX_LENGTH = 100;

export const MESSAGES = {
  invalid_email: 'Enter a valid email address.',
  name_too_long: `Name must be at most ${NAME_MAX_LENGTH} characters.`,
  name_control: 'Name cannot contain line breaks or control characters.',
  not_open: 'Signups are not open yet.',
  // A browser cannot tell a network failure from a response without CORS headers (e.g. the
  // platform's 404 for a function that is not deployed, cf. supabase/supabase#9373), so say both.
  unreachable: 'We could not reach the signup service. Check your connection or try again later.',
  internal: 'Something went wrong. Nothing was changed.',
} as const;

export interface SubscribeInput {
  email: string;
  name?: string;
}

/** The request body of `POST /functions/v1/subscribe`. */
export interface SubscribeBody {
  email: string;
  name?: string;
}

export type SubscribeOutcome =
  | { ok: true; status: 'pending' | 'confirmed' }
  | { ok: false; code: string; field: 'email' | 'name' | null; message: string };

type Failure = Extract<SubscribeOutcome, { ok: false }>;

function fail(code: string, message: string, field: Failure['field'] = null): Failure {
  return { ok: false, code, field, message };
}

// C0 controls, DEL and C1 controls (SPEC §5: a name has no control characters).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Checks the form's values as the function will (SPEC §5) and builds the request body. */
export function prepareSubscribe(
  input: SubscribeInput,
): { ok: true; body: SubscribeBody } | Failure {
  const email = checkEmail(input.email);
  if (!email.ok) return fail('invalid_email', MESSAGES.invalid_email, 'email');
  const name = (input.name ?? '').trim();
  if (name.length > NAME_MAX_LENGTH) return fail('invalid_input', MESSAGES.name_too_long, 'name');
  if (CONTROL.test(name)) return fail('invalid_input', MESSAGES.name_control, 'name');
  return { ok: true, body: name ? { email: email.email, name } : { email: email.email } };
}

/** What `supabase.functions.invoke()` resolves to. */
export interface InvokeResult {
  data: unknown;
  error: unknown;
  response?: Response;
}

async function readCatalogueError(
  res: Response,
): Promise<{ code: string; message: string } | null> {
  try {
    const body = (await res.clone().json()) as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = body.error ?? {};
    if (typeof code === 'string' && typeof message === 'string' && message)
      return { code, message };
  } catch {
    // Not JSON (e.g. the platform's own "Function not found" text): handled by status below.
  }
  return null;
}

/** Turns the invoke result into the outcome the form shows; never reports success it did not get. */
export async function readSubscribeResult(result: InvokeResult): Promise<SubscribeOutcome> {
  const { data, error } = result;
  if (!error) {
    const status = (data as { status?: unknown } | null)?.status;
    if (status === 'pending' || status === 'confirmed') return { ok: true, status };
    return fail('internal', MESSAGES.internal); // a 2xx we do not understand is not a signup
  }
  if (error instanceof FunctionsFetchError) return fail('unreachable', MESSAGES.unreachable);
  if (error instanceof FunctionsHttpError || error instanceof FunctionsRelayError) {
    const res = result.response ?? (error.context as Response | undefined);
    const known = res ? await readCatalogueError(res) : null;
    if (known) {
      // SPEC §8: show the catalogue message next to the field it concerns.
      const field = known.code === 'invalid_email' ? 'email' : null;
      return fail(known.code, known.message, field);
    }
    // No `subscribe` function deployed: the platform answers 404 without our error shape.
    if (res?.status === 404) return fail('not_open', MESSAGES.not_open);
  }
  return fail('internal', MESSAGES.internal);
}
