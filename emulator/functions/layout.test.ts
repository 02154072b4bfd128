// Unit tests: which Deno configuration a function runs with.
import { describe, expect, it } from 'vitest';
import { denoConfigArgs } from './layout.js';

describe('denoConfigArgs', () => {
  it("prefers the function's own deno.json", () => {
    expect(denoConfigArgs('/f/hello/deno.json', '/f/import_map.json')).toEqual([
      '--config=/f/hello/deno.json',
    ]);
  });
  it('falls back to the shared import map', () => {
    expect(denoConfigArgs(null, '/f/import_map.json')).toEqual([
      '--no-config',
      '--import-map=/f/import_map.json',
    ]);
  });
  it('uses no configuration at all otherwise', () => {
    expect(denoConfigArgs(null, null)).toEqual(['--no-config']);
  });
});
