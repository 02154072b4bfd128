// Unit tests for reading edge-function answers: catalogue errors with their field, platform
// failures that must not leak, and 2xx bodies that are not the documented shape.
import {
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
} from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  asQueryResult,
  FUNCTION_MESSAGES,
  isRecord,
  readFunctionResult,
  type FunctionFailure,
} from './functions';
import { QueryError } from './use-query';

const parseOk = (data: unknown) => (isRecord(data) && data.ok === true ? { ok: true } : null);

function httpError(status: number, body: string) {
  const response = new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
  return { data: null, error: new FunctionsHttpError(response), response };
}

describe('readFunctionResult', () => {
  it('returns parsed data for a documented 2xx and refuses an undocumented one', async () => {
    expect(await readFunctionResult({ data: { ok: true }, error: null }, parseOk)).toEqual({
      ok: true,
      data: { ok: true },
    });
    expect(await readFunctionResult({ data: 'OK', error: null }, parseOk)).toMatchObject({
      ok: false,
      code: 'internal',
      message: FUNCTION_MESSAGES.internal,
    });
  });

  it('keeps the code, message, field and status of a catalogue error', async () => {
    const result = httpError(
      422,
      JSON.stringify({
        error: { code: 'invalid_input', message: 'name: too long', field: 'name' },
      }),
    );
    expect(await readFunctionResult(result, parseOk)).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'name: too long',
      field: 'name',
      status: 422,
    });
    const gone = httpError(
      410,
      JSON.stringify({ error: { code: 'token_expired', message: 'Gone.' } }),
    );
    expect(await readFunctionResult(gone, parseOk)).toMatchObject({
      code: 'token_expired',
      field: null,
      status: 410,
    });
  });

  it('names a function that is not deployed, with a message the caller may choose', async () => {
    const missing = httpError(
      404,
      '{"code":"NOT_FOUND","message":"Requested function was not found"}',
    );
    expect(await readFunctionResult(missing, parseOk)).toMatchObject({
      code: 'not_deployed',
      message: FUNCTION_MESSAGES.not_deployed,
    });
    expect(
      await readFunctionResult(httpError(404, 'nope'), parseOk, { notDeployed: 'Closed.' }),
    ).toMatchObject({ code: 'not_deployed', message: 'Closed.' });
  });

  it('never shows platform errors, and says when the server could not be reached', async () => {
    for (const result of [
      httpError(500, '{"code":"WORKER_ERROR","message":"stack at line 3"}'),
      { data: null, error: new FunctionsRelayError(new Response('relay', { status: 502 })) },
      { data: null, error: new Error('odd') },
    ]) {
      expect(await readFunctionResult(result, parseOk)).toMatchObject({
        code: 'internal',
        message: FUNCTION_MESSAGES.internal,
      });
    }
    const offline = { data: null, error: new FunctionsFetchError(new TypeError('Failed')) };
    expect(await readFunctionResult(offline, parseOk)).toMatchObject({
      code: 'unreachable',
      message: FUNCTION_MESSAGES.unreachable,
    });
  });
});

describe('asQueryResult', () => {
  it('turns a failure into the QueryError useQuery throws, keeping the field', () => {
    const failure: FunctionFailure = {
      ok: false,
      code: 'not_found',
      message: 'No waitlist place has that code.',
      field: null,
      status: 404,
    };
    const { data, error } = asQueryResult(failure);
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(QueryError);
    expect(error).toMatchObject({ code: 'not_found', status: 404, details: { field: null } });
    expect(asQueryResult({ ok: true, data: 1 })).toEqual({ data: 1, error: null });
  });
});
