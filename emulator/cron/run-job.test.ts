// Unit tests for the result texts pg_cron records for a run.
import { describe, expect, it } from 'vitest';
import { errorMessage, returnMessage } from './run-job.js';

const result = (affectedRows: number, rows: number, fields = rows > 0 ? 1 : 0) => ({
  rows: Array.from({ length: rows }, () => ({})),
  fields: Array.from({ length: fields }, (_, i) => ({ name: `c${i}`, dataTypeID: 23 })),
  affectedRows,
});

describe('returnMessage', () => {
  it("gives libpq's command status for writes", () => {
    expect(returnMessage('insert into t default values', result(1, 0))).toBe('INSERT 0 1');
    expect(returnMessage('  UPDATE t set a = 1', result(3, 0))).toBe('UPDATE 3');
    expect(returnMessage('delete from t', result(0, 0))).toBe('DELETE 0');
  });

  it("gives pg_cron's row count for statements returning rows", () => {
    expect(returnMessage('select 1', result(0, 1))).toBe('1 row');
    expect(returnMessage('select net.http_post(...)', result(0, 1))).toBe('1 row');
    expect(returnMessage('select * from t where false', result(0, 0, 1))).toBe('0 rows');
    expect(returnMessage('insert into t default values returning id', result(2, 2))).toBe('2 rows');
    expect(returnMessage('-- note\nwith x as (select 1) select * from x', result(0, 1))).toBe(
      '1 row',
    );
  });

  it('rebuilds the tag of other commands from their keywords', () => {
    expect(returnMessage('create table t (a int)', result(0, 0))).toBe('CREATE TABLE');
    expect(returnMessage('create or replace function f() …', result(0, 0))).toBe('CREATE FUNCTION');
    expect(returnMessage('create unique index i on t (a)', result(0, 0))).toBe('CREATE INDEX');
    expect(returnMessage('refresh materialized view v', result(0, 0))).toBe(
      'REFRESH MATERIALIZED VIEW',
    );
    expect(returnMessage('truncate t', result(0, 0))).toBe('TRUNCATE TABLE');
    expect(returnMessage('lock table t', result(0, 0))).toBe('LOCK TABLE');
    expect(returnMessage('vacuum analyze t', result(0, 0))).toBe('VACUUM');
    expect(returnMessage('notify ch', result(0, 0))).toBe('NOTIFY');
  });
});

describe('errorMessage', () => {
  it("is libpq's error text with detail and hint lines", () => {
    expect(errorMessage({ message: 'relation "x" does not exist' })).toBe(
      'ERROR:  relation "x" does not exist\n',
    );
    expect(errorMessage({ message: 'bad', detail: 'why', hint: 'fix' })).toBe(
      'ERROR:  bad\nDETAIL:  why\nHINT:  fix\n',
    );
  });
});
