// Unit tests for splitting migration files into the statements the CLI records.
import { describe, expect, it } from 'vitest';
import { splitStatements } from './sql-split.js';

describe('splitStatements', () => {
  it('splits on top-level semicolons and trims', () => {
    expect(splitStatements('create table a (id int);\n  insert into a values (1) ;\n')).toEqual([
      'create table a (id int)',
      'insert into a values (1)',
    ]);
  });

  it('keeps the last statement without a semicolon and drops comment-only fragments', () => {
    expect(splitStatements('-- header; still a comment\nselect 1;\nselect 2\n')).toEqual([
      '-- header; still a comment\nselect 1',
      'select 2',
    ]);
    expect(splitStatements('select 1;\n/* tail; */\n-- end\n')).toEqual(['select 1']);
  });

  it('ignores semicolons in strings, identifiers and escape strings', () => {
    expect(splitStatements(`select 'a;''b', "x;y", E'c\\';d' as z; select 2;`)).toEqual([
      `select 'a;''b', "x;y", E'c\\';d' as z`,
      'select 2',
    ]);
  });

  it('ignores semicolons in dollar-quoted bodies, tagged or not', () => {
    const fn = `create function f() returns void language plpgsql as $$ begin perform 1; end $$`;
    const tagged = `do $body$ begin raise notice 'x;'; end $body$`;
    expect(splitStatements(`${fn};\n${tagged};`)).toEqual([fn, tagged]);
  });

  it('keeps begin atomic bodies together', () => {
    const fn = `create function g() returns int language sql begin atomic select 1; select case when true then 2 end; end`;
    expect(splitStatements(`${fn};\nselect 3;`)).toEqual([fn, 'select 3']);
  });

  it('does not take $1 parameters for dollar quotes', () => {
    expect(splitStatements('prepare p as select $1; select 2;')).toEqual([
      'prepare p as select $1',
      'select 2',
    ]);
  });

  it('skips nested block comments', () => {
    expect(splitStatements('/* a /* b; */ c; */ select 1;')).toEqual([
      '/* a /* b; */ c; */ select 1',
    ]);
  });
});
