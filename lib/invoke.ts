// Calls one public edge function through the site's supabase client and reads its answer.
import {
  readFunctionResult,
  type FunctionOutcome,
  type Parser,
  type ReadOptions,
} from './functions';
import { supabase } from './supabase';

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
): Promise<FunctionOutcome<T>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) search.set(key, value);
  }
  const path = search.size ? `${name}?${search.toString()}` : name;
  const result = await supabase.functions.invoke(path, {
    method: request.method ?? (request.body ? 'POST' : 'GET'),
    body: request.body,
  });
  return readFunctionResult(result, parse, options);
}
