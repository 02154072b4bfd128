// Unit tests for a wire client's statement names: renaming, long names, errors naming the client's own.
import { describe, expect, it } from 'vitest';
import { errorMessage } from './wire-messages.js';
import { ConnectionStatements } from './wire-statements.js';

function message(type: string, body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + bytes.length, 1);
  return Buffer.concat([header, bytes]);
}

const body = (m: Buffer) => m.subarray(5).toString('utf8');

describe('ConnectionStatements', () => {
  it('renames named statements in Parse, Bind, Describe and Close, not portals', () => {
    const s = new ConnectionStatements(7);
    expect(body(s.rewrite(message('P', 'P0\0select 1\0\0\0')).message)).toBe(
      'pbw7_P0\0select 1\0\0\0',
    );
    expect(body(s.rewrite(message('B', 'portal\0P0\0\0\0\0\0\0\0')).message)).toBe(
      'portal\0pbw7_P0\0\0\0\0\0\0\0',
    );
    expect(body(s.rewrite(message('D', 'SP0\0')).message)).toBe('Spbw7_P0\0');
    expect(body(s.rewrite(message('D', 'Pportal\0')).message)).toBe('Pportal\0');
    expect(body(s.rewrite(message('C', 'SP0\0')).message)).toBe('Spbw7_P0\0');
  });

  it('keeps names within 63 bytes, distinct for distinct long names', () => {
    const s = new ConnectionStatements(12);
    const a = s.internal('x'.repeat(70));
    const b = s.internal(`${'x'.repeat(69)}y`);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(a.startsWith('pbw12_')).toBe(true);
  });

  it("restores the client's names in error messages only for its own statements", () => {
    const s = new ConnectionStatements(3);
    const long = 'é'.repeat(40);
    const inner = s.internal(long);
    s.internal('P0');
    const out = Buffer.concat([
      message('1', ''),
      errorMessage('ERROR', '42P05', 'prepared statement "pbw3_P0" already exists'),
      errorMessage('ERROR', '26000', `prepared statement "${inner}" does not exist`),
      errorMessage('ERROR', '26000', 'prepared statement "pbw4_P0" does not exist'),
    ]);
    const text = s.restoreNames(out).toString('utf8');
    expect(text).toContain('prepared statement "P0" already exists');
    expect(text).toContain(`prepared statement "${long}" does not exist`);
    expect(text).toContain('"pbw4_P0"'); // another connection's, never this client's to see
    expect(s.restoreNames(out).readInt32BE(6)).toBeGreaterThan(0);
  });

  it('parses the unnamed statement again only after another turn and until a simple Query', () => {
    const s = new ConnectionStatements(1);
    const parse = message('P', '\0select 1\0\0\0');
    const bind = message('B', '\0\0\0\0\0\0\0\0');
    s.rewrite(parse);
    expect(s.rewrite(bind).reparse).toBeNull();
    s.newTurn();
    expect(s.rewrite(bind).reparse).toEqual(parse);
    expect(s.rewrite(bind).reparse).toBeNull();
    s.newTurn();
    s.rewrite(message('Q', 'select 2\0'));
    expect(s.rewrite(bind).reparse).toBeNull();
  });

  it('recognises DEALLOCATE ALL', () => {
    expect(ConnectionStatements.isDeallocateAll(' DEALLOCATE ALL;')).toBe(true);
    expect(ConnectionStatements.isDeallocateAll('deallocate prepare all')).toBe(true);
    expect(ConnectionStatements.isDeallocateAll('deallocate p0')).toBe(false);
  });
});
