// A pool of SMTP connections for finished messages (mail.ts builds the MIME text itself). Each
// connection is nodemailer's SMTPConnection, which speaks the protocol (greeting, EHLO, STARTTLS,
// AUTH, PIPELINING, dot-stuffing); this file only decides which connection carries which message.
// nodemailer's own pool takes only what its Mailer composes: handing it a finished message still
// built a MIME tree and a stream pipeline per message, about half of the transport's CPU time on a
// campaign send (bench/README.md, send). No Deno APIs here: the unit test runs it under Node
// against a real SMTP server.

/** An SMTP error as SMTPConnection reports it. */
export interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
}

export interface Envelope {
  from: string;
  to: string[];
}

/** What the pool uses of nodemailer's SMTPConnection (its documented API). */
export interface SmtpConnection {
  connect(callback: (err?: SmtpError) => void): void;
  login(auth: { user: string; pass: string }, callback: (err?: SmtpError) => void): void;
  send(
    envelope: Envelope,
    message: Uint8Array | string,
    callback: (err: SmtpError | null, info: unknown) => void,
  ): void;
  reset(callback: (err?: SmtpError) => void): void;
  quit(): void;
  close(): void;
  on(event: 'error' | 'end', listener: (err?: SmtpError) => void): unknown;
}

export interface PoolOptions {
  /** A new, unconnected connection (nodemailer: `new SMTPConnection(options)`). */
  create: () => SmtpConnection;
  auth?: { user: string; pass: string };
  /** Connections open at once. */
  maxConnections: number;
  /** A connection is replaced after this many messages (many servers cap a session; nodemailer's pool: 100). */
  maxMessages: number;
}

export interface SmtpPool {
  /** Resolves once the server accepted the message; rejects with SMTPConnection's error. */
  send(envelope: Envelope, message: Uint8Array | string): Promise<void>;
  /** Quits idle connections and those that finish their message; messages still waiting fail. */
  close(): void;
}

interface Slot {
  connection: SmtpConnection;
  sent: number;
  /** The server closed it or it failed: never handed out again. */
  dead: boolean;
}

export function smtpPool({ create, auth, maxConnections, maxMessages }: PoolOptions): SmtpPool {
  const idle: Slot[] = [];
  const waiting: { resolve: (slot: Slot) => void; reject: (error: Error) => void }[] = [];
  let open = 0;
  let closed = false;

  const drop = (slot: Slot, quit: boolean): void => {
    if (slot.dead) return;
    slot.dead = true;
    open--;
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    if (quit) slot.connection.quit();
    else slot.connection.close();
    // Room for a new connection: someone waiting may open it.
    if (waiting.length > 0 && !closed) openFor(waiting.shift()!);
  };

  /** Opens a connection for one waiting message (counted as open from the start). */
  const openFor = (waiter: (typeof waiting)[number]): void => {
    open++;
    const slot: Slot = { connection: create(), sent: 0, dead: false };
    let ready = false;
    const fail = (err: SmtpError, quit: boolean): void => {
      if (!ready) {
        ready = true;
        waiter.reject(err);
      }
      drop(slot, quit);
    };
    // SMTPConnection reports a failed connect (refused, timed out, a bad greeting) as 'error', not
    // through connect's callback, and an EventEmitter error without a listener would throw. Whatever
    // happens to the socket later (the server ends an idle session), the connection is not used again.
    slot.connection.on('error', (err) => fail(err ?? connectionError('failed'), false));
    slot.connection.on('end', () => fail(connectionError('closed before it was ready'), false));
    slot.connection.connect((err) => {
      if (err) return fail(err, false);
      if (!auth) {
        ready = true;
        return waiter.resolve(slot);
      }
      slot.connection.login(auth, (loginError) => {
        if (loginError) return fail(loginError, true);
        ready = true;
        waiter.resolve(slot);
      });
    });
  };

  const acquire = (): Promise<Slot> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(connectionError('pool closed'));
      const slot = idle.pop();
      if (slot) return resolve(slot);
      const waiter = { resolve, reject };
      if (open < maxConnections) openFor(waiter);
      else waiting.push(waiter);
    });

  const release = (slot: Slot): void => {
    if (slot.dead) return;
    if (closed || slot.sent >= maxMessages) return drop(slot, true);
    const next = waiting.shift();
    if (next) next.resolve(slot);
    else idle.push(slot);
  };

  return {
    async send(envelope, message) {
      const slot = await acquire();
      await new Promise<void>((resolve, reject) => {
        slot.connection.send(envelope, message, (err) => {
          slot.sent++;
          if (!err) {
            release(slot);
            return resolve();
          }
          // The server refused this message (envelope or content) but not the session: RSET and
          // keep the connection. 421 means the server is closing it.
          if (
            (err.code === 'EENVELOPE' || err.code === 'EMESSAGE') &&
            err.responseCode !== 421 &&
            !slot.dead
          )
            slot.connection.reset((resetError) => (resetError ? drop(slot, false) : release(slot)));
          else drop(slot, false);
          reject(err);
        });
      });
    },
    close() {
      closed = true;
      for (const slot of [...idle]) drop(slot, true);
      for (const waiter of waiting.splice(0)) waiter.reject(connectionError('pool closed'));
    },
  };
}

/** A connection-level failure, coded as SMTPConnection codes its own (mail.ts: temporary). */
function connectionError(what: string): SmtpError {
  return Object.assign(new Error(`SMTP connection ${what}`), { code: 'ECONNECTION' });
}
