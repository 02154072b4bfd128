// Edge function calls of the public pages as the anon role: functions-js's invoke for JSON bodies
// (its error classes, so lib/functions.ts reads both clients alike), in a few lines of fetch. Its own
// module, apart from lib/supabase-public.ts, so a page that only reads (and the home page until its
// form is submitted) does not download it.
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
} from '@supabase/functions-js';
import { SUPABASE_URL } from './config';
import { anonHeaders } from './supabase-public';

/** What `functions.invoke()` resolves to (functions-js's FunctionsResponse), as lib/functions.ts reads it. */
export interface PublicInvokeResult {
  data: unknown;
  error: FunctionsFetchError | FunctionsHttpError | FunctionsRelayError | Error | null;
  response?: Response;
}

/**
 * `publicFunctions.invoke('subscribe', { body })` as the anon role: functions-js's invoke for JSON
 * bodies (its error classes, so lib/functions.ts reads both clients alike), in a few lines of fetch.
 */
export const publicFunctions = {
  async invoke(
    name: string,
    options: { method?: 'GET' | 'POST'; body?: object } = {},
  ): Promise<PublicInvokeResult> {
    let response: Response;
    try {
      response = await fetch(`${SUPABASE_URL}/functions/v1/${name}`, {
        method: options.method ?? 'POST',
        headers: options.body
          ? { ...anonHeaders(), 'Content-Type': 'application/json' }
          : anonHeaders(),
        body: options.body ? JSON.stringify(options.body) : undefined,
      });
    } catch (error) {
      return { data: null, error: new FunctionsFetchError(error) };
    }
    if (response.headers.get('x-relay-error') === 'true') {
      return { data: null, error: new FunctionsRelayError(response), response };
    }
    if (!response.ok) return { data: null, error: new FunctionsHttpError(response), response };
    try {
      const type = (response.headers.get('Content-Type') ?? 'text/plain')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      const data = type === 'application/json' ? await response.json() : await response.text();
      return { data, error: null, response };
    } catch (error) {
      return { data: null, error: error as Error, response };
    }
  },
};
