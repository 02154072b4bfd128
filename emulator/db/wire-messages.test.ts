// Unit tests for the protocol messages the wire server reads and writes itself.
import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  readyForQuery,
  refusal,
  scanOutput,
  statementText,
} from './wire-messages.js';

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

describe('wire messages', () => {
  it('reads the SQL of simple queries and Parse messages only', () => {
    expect(statementText(message('Q', Buffer.from('select 1\0')))).toBe('select 1');
    expect(statementText(message('P', Buffer.from('stmt1\0select $1\0\0\0')))).toBe('select $1');
    expect(statementText(message('S', Buffer.alloc(0)))).toBeNull();
  });

  it('refuses COPY FROM STDIN, which would abort PGlite, and nothing else', () => {
    expect(refusal('COPY public.t (a, b) FROM STDIN with (format csv)')).toMatch(
      /^COPY FROM STDIN/,
    );
    expect(refusal('copy t from\n  stdin')).not.toBeNull();
    expect(refusal('copy t to stdout')).toBeNull();
    expect(refusal("select 'from stdin'")).toBeNull();
  });

  it('finds the transaction status and notifications in backend output', () => {
    const notify = message('A', Buffer.from('\0\0\0\x07pgrst\0reload schema\0'));
    const out = Buffer.concat([notify, errorMessage('ERROR', '0A000', 'no'), readyForQuery('T')]);
    expect(scanOutput(out)).toEqual({
      ready: 'T',
      notifications: [{ channel: 'pgrst', payload: 'reload schema' }],
    });
    expect(scanOutput(Buffer.alloc(0))).toEqual({ ready: null, notifications: [] });
  });
});
