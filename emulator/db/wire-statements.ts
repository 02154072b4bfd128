// One wire client's own prepared statements on PGlite's single session: renamed, restored in errors, dropped on close.
import { createHash } from 'node:crypto';

/** Postgres keeps prepared statement names in NAMEDATALEN (64) bytes, terminator included. */
const MAX_NAME_BYTES = 63;

const CSTRING_END = 0;

function frame(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

function cstring(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([CSTRING_END])]);
}

/** The NUL-terminated string at `at` in `body`, and where the next field starts. */
function readCString(body: Buffer, at: number): { text: string; next: number } {
  const end = body.indexOf(CSTRING_END, at);
  return { text: body.subarray(at, end).toString('utf8'), next: end + 1 };
}

/** Messages the client sends that name a prepared statement, and where the name sits. */
const P = 0x50; // Parse: name, query, parameter types
const B = 0x42; // Bind: portal, statement, …
const D = 0x44; // Describe: 'S' | 'P', name
const C = 0x43; // Close: 'S' | 'P', name
const Q = 0x51; // Query
const E = 0x45; // ErrorResponse (backend)

/** A Close of a statement, as the cleanup on disconnect sends it. */
export function closeStatement(name: string): Buffer {
  return frame(C, Buffer.concat([Buffer.from('S'), cstring(name)]));
}

export const SYNC = frame(0x53, Buffer.alloc(0));

const DEALLOCATE_ALL = /^\s*deallocate\s+(?:prepare\s+)?all\s*;?\s*$/i;

/**
 * A real Postgres server gives every connection its own prepared statements and portals. PGlite
 * is one session shared by every wire client (and the emulator), so one client's `P0` would make
 * the next client's `Parse` of `P0` fail with 42P05, and two connected clients could run each
 * other's statements. Each client's named statements therefore live in PGlite under a name of
 * their own (`pbw<connection>_<name>`, hashed when that would pass Postgres's 63 bytes); error
 * messages name the client's own name again, and the statements are closed when it disconnects.
 *
 * Portals need nothing: a client holds the session from its first message until the backend is
 * idle (session-lock.ts), and portals do not outlive a transaction (WITH HOLD cursors aside).
 *
 * The unnamed statement is one per session too: between two of this client's turns the emulator
 * or another client may have parsed its own. A client may Bind the unnamed statement it parsed in
 * an earlier exchange, so its last unnamed Parse is kept and sent again before such a Bind or
 * Describe when something else may have used the session since.
 */
export class ConnectionStatements {
  private readonly prefix: string;
  /** PGlite's name → the client's, for every name this client has used. */
  private readonly names = new Map<string, string>();
  /** Statements this client prepared with SQL PREPARE, closed with the rest on disconnect. */
  private readonly fromSql = new Set<string>();
  /** The client's last unnamed Parse, until a simple Query destroys the unnamed statement. */
  private unnamedParse: Buffer | null = null;
  /** Whether the session's unnamed statement is still that Parse's. */
  private unnamedCurrent = false;

  constructor(connection: number) {
    this.prefix = `pbw${connection}_`;
  }

  /** The session may have been used by others since this client's last turn. */
  newTurn(): void {
    this.unnamedCurrent = false;
  }

  /** The name PGlite knows the client's statement `name` by ('' stays the unnamed statement). */
  internal(name: string): string {
    if (name === '') return '';
    let mapped = `${this.prefix}${name}`;
    if (Buffer.byteLength(mapped) > MAX_NAME_BYTES) {
      mapped = `${this.prefix}h${createHash('sha1').update(name).digest('hex')}`;
    }
    this.names.set(mapped, name);
    return mapped;
  }

  /**
   * The message as PGlite must see it, and a Parse to run first when the client refers to an
   * unnamed statement that something else may have replaced.
   */
  rewrite(message: Buffer): { message: Buffer; reparse: Buffer | null } {
    const type = message[0];
    const body = message.subarray(5);
    if (type === Q) {
      this.unnamedParse = null; // a simple Query drops the unnamed statement
      this.unnamedCurrent = false;
      return { message, reparse: null };
    }
    if (type === P) {
      const { text: name, next } = readCString(body, 0);
      if (name === '') {
        this.unnamedParse = message;
        this.unnamedCurrent = true;
        return { message, reparse: null };
      }
      return {
        message: frame(P, Buffer.concat([cstring(this.internal(name)), body.subarray(next)])),
        reparse: null,
      };
    }
    if (type === B) {
      const portal = readCString(body, 0);
      const statement = readCString(body, portal.next);
      if (statement.text === '') return { message, reparse: this.staleUnnamed() };
      return {
        message: frame(
          B,
          Buffer.concat([
            body.subarray(0, portal.next),
            cstring(this.internal(statement.text)),
            body.subarray(statement.next),
          ]),
        ),
        reparse: null,
      };
    }
    if ((type === D || type === C) && body[0] === 0x53 /* S */) {
      const { text: name } = readCString(body, 1);
      if (name === '') {
        return { message, reparse: type === D ? this.staleUnnamed() : null };
      }
      return {
        message: frame(type, Buffer.concat([Buffer.from('S'), cstring(this.internal(name))])),
        reparse: null,
      };
    }
    return { message, reparse: null };
  }

  private staleUnnamed(): Buffer | null {
    if (this.unnamedCurrent || !this.unnamedParse) return null;
    this.unnamedCurrent = true;
    return this.unnamedParse;
  }

  /** Whether a simple Query is `DEALLOCATE ALL`, which must only drop this client's statements. */
  static isDeallocateAll(sql: string): boolean {
    return DEALLOCATE_ALL.test(sql);
  }

  /** Records statements the client prepared with SQL PREPARE (seen in pg_prepared_statements). */
  preparedWithSql(names: Iterable<string>): void {
    for (const name of names) this.fromSql.add(name);
  }

  /** Close messages for every statement this client may have left in the session. */
  closeAll(): Buffer[] {
    const all = [...this.names.keys(), ...this.fromSql].map(closeStatement);
    this.fromSql.clear();
    return all;
  }

  /** The backend's output with this client's statement names in error messages. */
  restoreNames(out: Buffer): Buffer {
    if (!out.includes(this.prefix)) return out;
    const parts: Buffer[] = [];
    let at = 0;
    while (at + 5 <= out.length) {
      const length = out.readInt32BE(at + 1);
      const whole = out.subarray(at, at + 1 + length);
      parts.push(out[at] === E ? this.restoreError(whole) : whole);
      at += 1 + length;
    }
    parts.push(out.subarray(at));
    return Buffer.concat(parts);
  }

  private restoreError(message: Buffer): Buffer {
    const fields: Buffer[] = [];
    let at = 5;
    while (at < message.length && message[at] !== CSTRING_END) {
      const code = message[at]!;
      const { text, next } = readCString(message, at + 1);
      const restored = text.replace(/"(pbw\d+_[^"]*)"/g, (whole, name: string) => {
        const own = this.names.get(name);
        return own === undefined ? whole : `"${own}"`;
      });
      fields.push(Buffer.from([code]), cstring(restored));
      at = next;
    }
    fields.push(Buffer.from([CSTRING_END]));
    return frame(E, Buffer.concat(fields));
  }
}
