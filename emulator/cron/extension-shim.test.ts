// Unit tests for blanking `create extension pg_cron|pg_net` out of migrations.
import { describe, expect, it } from 'vitest';
import { blankCreateExtension } from './extension-shim.js';

const both = new Set(['pg_cron', 'pg_net']);

describe('blankCreateExtension', () => {
  it('blanks the statements, keeping length, lines and the other statements', () => {
    const sql = [
      'create table t (a int);',
      '-- scheduling',
      'create extension if not exists pg_cron with schema pg_catalog;',
      'CREATE EXTENSION "pg_net"',
      '  WITH SCHEMA extensions;',
      "select cron.schedule('x', '1 seconds', $$select 1; create extension pg_cron$$);",
    ].join('\n');
    const out = blankCreateExtension(sql, both);
    expect(out.length).toBe(sql.length);
    expect(out.split('\n').map((l) => l.trim())).toEqual([
      'create table t (a int);',
      '',
      ';',
      '',
      ';',
      "select cron.schedule('x', '1 seconds', $$select 1; create extension pg_cron$$);",
    ]);
  });

  it('leaves other extensions, other names and unlisted ones alone', () => {
    const sql =
      'create extension pg_trgm; create extension pg_cronx; create extension pg_net; create extension pg_cron;';
    expect(blankCreateExtension(sql, new Set(['pg_cron']))).toBe(
      'create extension pg_trgm; create extension pg_cronx; create extension pg_net;                         ;',
    );
  });

  it('handles a block comment before the statement and a final statement without ;', () => {
    const sql = '/* a */ create extension pg_net';
    expect(blankCreateExtension(sql, both)).toBe(' '.repeat(sql.length));
  });
});
