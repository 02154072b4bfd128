// Postgres protocol messages the wire server reads or writes itself, and statements it keeps from PGlite.

/** An ErrorResponse message (severity, SQLSTATE, text). */
export function errorMessage(severity: string, code: string, text: string): Buffer {
  const fields = Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${text}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0, 'latin1');
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

/** A CommandComplete message with its command tag. */
export function commandComplete(tag: string): Buffer {
  const text = Buffer.from(`${tag}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('C', 0, 'latin1');
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

/** A ReadyForQuery message with the backend's transaction status. */
export function readyForQuery(status: 'I' | 'T' | 'E'): Buffer {
  return Buffer.from([0x5a, 0, 0, 0, 5, status.charCodeAt(0)]);
}

export interface ScanResult {
  /** Transaction status of the last ReadyForQuery, if the output had one. */
  ready: 'I' | 'T' | 'E' | null;
  notifications: Array<{ channel: string; payload: string }>;
}

/** Reads the backend's complete reply to one message for ReadyForQuery and NOTIFY. */
export function scanOutput(out: Buffer): ScanResult {
  const result: ScanResult = { ready: null, notifications: [] };
  let at = 0;
  while (at + 5 <= out.length) {
    const type = out[at];
    const length = out.readInt32BE(at + 1);
    const body = out.subarray(at + 5, at + 1 + length);
    if (type === 0x5a /* Z */) result.ready = String.fromCharCode(body[0]!) as ScanResult['ready'];
    if (type === 0x41 /* A */) {
      const end = body.indexOf(0, 4);
      result.notifications.push({
        channel: body.subarray(4, end).toString('utf8'),
        payload: body.subarray(end + 1, body.indexOf(0, end + 1)).toString('utf8'),
      });
    }
    at += 1 + length;
  }
  return result;
}

/** The SQL text of a simple Query ('Q') or a Parse ('P') message; null for other messages. */
export function statementText(message: Buffer): string | null {
  const body = message.subarray(5);
  if (message[0] === 0x51 /* Q */) return body.subarray(0, body.indexOf(0)).toString('utf8');
  if (message[0] === 0x50 /* P */) {
    const start = body.indexOf(0) + 1;
    return body.subarray(start, body.indexOf(0, start)).toString('utf8');
  }
  return null;
}

// PGlite 0.5 aborts the whole WebAssembly instance on COPY … FROM STDIN sent over the raw
// protocol ("Program terminated with exit(1)"), which would take the emulator down with it.
const COPY_FROM_STDIN = /\bcopy\b[\s\S]*\bfrom\s+stdin\b/i;

/** Why the statement is refused before it reaches PGlite, or null when it may run. */
export function refusal(sql: string): string | null {
  return COPY_FROM_STDIN.test(sql)
    ? 'COPY FROM STDIN is not supported by the embedded database (PGlite); use INSERT, or a native server via DATABASE_URL'
    : null;
}
