// Calls one edge function and reads its answer: as the anon role through the public pages' lean
// client by default, or through another client (the team's, with its session) when given.
import {
  readFunctionResult,
  type FunctionOutcome,
  type InvokeResult,
  type Parser,
  type ReadOptions,
} from './functions';
import { publicFunctions } from './public-functions';

/** A client's `functions`: the public pages' lean one, or supabase-js's `supabase.functions`. */
export interface FunctionsInvoker {
  invoke(name: string, options: { method?: 'GET' | 'POST'; body?: object }): Promise<InvokeResult>;
}

export interface InvokeRequest {
  method?: 'GET' | 'POST';
  /** Query-string parameters (GET ?token=, ?code=). */
  query?: Record<string, string | undefined>;
  /** A JSON body (POST). */
  body?: Record<string, unknown>;
}

export async function invokeFunction<T>(
  name: string,
  parse: Parser<T>,
  request: InvokeRequest = {},
  options?: ReadOptions,
  functions: FunctionsInvoker = publicFunctions,
): Promise<FunctionOutcome<T>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) search.set(key, value);
  }
  const path = search.size ? `${name}?${search.toString()}` : name;
  const result = await functions.invoke(path, {
    method: request.method ?? (request.body ? 'POST' : 'GET'),
    body: request.body,
  });
  return readFunctionResult(result, parse, options);
}
