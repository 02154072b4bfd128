// Unit tests: routing /functions/v1 URLs to functions, and the accepted methods.
import { describe, expect, it } from 'vitest';
import { isAllowedMethod, routeFunction } from './paths.js';

const route = (path: string) => routeFunction(new URL(path, 'http://127.0.0.1:54321'));

describe('routeFunction (contract §5.2)', () => {
  it('keeps the function name in the forwarded path', () => {
    expect(route('/functions/v1/hello')).toEqual({ name: 'hello', forwardPath: '/hello' });
  });
  it('keeps sub-paths, trailing slashes and the query string', () => {
    expect(route('/functions/v1/hello/a/b?x=1&y=%20')).toEqual({
      name: 'hello',
      forwardPath: '/hello/a/b?x=1&y=%20',
    });
    expect(route('/functions/v1/hello/')).toEqual({ name: 'hello', forwardPath: '/hello/' });
  });
  it('accepts the characters function names may hold', () => {
    expect(route('/functions/v1/send_email-2')?.name).toBe('send_email-2');
  });
  it('finds no function for a missing name, shared folders or traversal', () => {
    expect(route('/functions/v1')).toBeNull();
    expect(route('/functions/v1/')).toBeNull();
    expect(route('/functions/v1/_shared/cors.ts')).toBeNull();
    expect(route('/functions/v1/%2E%2E/secret')).toBeNull();
    expect(route('/functions/v1/a%2Fb')).toBeNull();
    expect(route('/functions/v1/%E0%A4%A')).toBeNull();
    expect(route('/rest/v1/hello')).toBeNull();
  });
});

describe('isAllowedMethod (contract §5.3)', () => {
  it('allows the six methods hosted functions accept', () => {
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect(isAllowedMethod(m)).toBe(true);
    }
  });
  it('rejects everything else', () => {
    for (const m of ['HEAD', 'TRACE', 'CONNECT', 'PROPFIND', 'get']) {
      expect(isAllowedMethod(m)).toBe(false);
    }
  });
});
