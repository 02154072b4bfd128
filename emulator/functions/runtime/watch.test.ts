// Unit tests: which functions a file change reloads.
import { describe, expect, it } from 'vitest';
import { affectedFunctions } from './watch.js';

describe('affectedFunctions', () => {
  it('maps a file inside a function folder to that function', () => {
    expect(affectedFunctions('hello/index.ts')).toEqual({ name: 'hello' });
    expect(affectedFunctions('hello/lib/deep.ts')).toEqual({ name: 'hello' });
  });
  it('reloads every function for shared code and project-wide files', () => {
    expect(affectedFunctions('_shared/cors.ts')).toEqual({ all: true });
    expect(affectedFunctions('.env')).toEqual({ all: true });
    expect(affectedFunctions('deno.json')).toEqual({ all: true });
    expect(affectedFunctions('hello')).toEqual({ all: true });
  });
  it('ignores an empty name', () => {
    expect(affectedFunctions('')).toBeNull();
  });
});
