// The SMTP pool of the edge functions' mail transport (supabase/functions/_shared/smtp-pool.ts) with
// nodemailer's SMTPConnection, as mail.ts builds it, against a real SMTP server (smtp-server, the
// library MailDev is built on): how many connections carry the messages, what a refusal, a dropped
// connection, a refused connection or a failed login does to the messages and the connections.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { composedMessage, type Composer } from '../../supabase/functions/_shared/mail-mime';
import {
  smtpPool,
  type PoolOptions,
  type SmtpConnection,
  type SmtpError,
} from '../../supabase/functions/_shared/smtp-pool';

interface Received {
  to: string;
  text: string;
  connection: string;
}

let servers: SMTPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  servers = [];
});

/** An SMTP server on a free port that keeps what it accepts; `options` adds refusals and auth. */
async function server(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const connections = new Set<string>();
  let open = 0;
  let mostOpen = 0;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onConnect(session, callback) {
      connections.add(session.id);
      mostOpen = Math.max(mostOpen, ++open);
      callback();
    },
    onClose() {
      open--;
    },
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo)
          received.push({ to: to.address, text, connection: session.id });
        callback();
      });
    },
    ...options,
  });
  servers.push(smtp);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    smtp,
    port,
    received,
    connections,
    mostOpen: () => mostOpen,
  };
}

function pool(port: number, options: Partial<PoolOptions> = {}) {
  return smtpPool({
    create: () =>
      new SMTPConnection({
        host: '127.0.0.1',
        port,
        ignoreTLS: true,
        connectionTimeout: 2000,
      }) as unknown as SmtpConnection,
    maxConnections: 3,
    maxMessages: 100,
    ...options,
  });
}

const message = (to: string) => Buffer.from(`To: ${to}\r\nSubject: Hi\r\n\r\nHello ${to}\r\n`);
const envelope = (to: string) => ({ from: 'news@example.com', to: [to] });

/** Settles every send and answers what each did: 'sent' or the error's code and response code. */
async function sendAll(p: ReturnType<typeof pool>, addresses: string[]) {
  return await Promise.all(
    addresses.map((to) =>
      p.send(envelope(to), message(to)).then(
        () => 'sent',
        (e: SmtpError) => `${e.code ?? '?'} ${e.responseCode ?? ''}`.trim(),
      ),
    ),
  );
}

describe('smtp pool', () => {
  it('carries every message over at most maxConnections connections, reused', async () => {
    const s = await server();
    const p = pool(s.port);
    const addresses = Array.from({ length: 60 }, (_, i) => `r${i}@example.com`);
    expect(await sendAll(p, addresses)).toEqual(addresses.map(() => 'sent'));
    p.close();
    expect(s.received.map((r) => r.to).sort()).toEqual([...addresses].sort());
    for (const r of s.received) expect(r.text).toContain(`Hello ${r.to}`);
    expect(s.connections.size).toBeLessThanOrEqual(3);
    expect(s.mostOpen()).toBeLessThanOrEqual(3);
  });

  it('replaces a connection after maxMessages messages', async () => {
    const s = await server();
    const p = pool(s.port, { maxConnections: 1, maxMessages: 5 });
    const addresses = Array.from({ length: 12 }, (_, i) => `m${i}@example.com`);
    expect(await sendAll(p, addresses)).toEqual(addresses.map(() => 'sent'));
    p.close();
    expect(s.connections.size).toBe(3);
    const perConnection = new Map<string, number>();
    for (const r of s.received)
      perConnection.set(r.connection, (perConnection.get(r.connection) ?? 0) + 1);
    expect([...perConnection.values()].sort()).toEqual([2, 5, 5]);
  });

  it('rejects a refused recipient with its response code and keeps the connection', async () => {
    const s = await server({
      onRcptTo(address, _session, callback) {
        const code = { 'busy@example.com': 451, 'gone@example.com': 550 }[address.address];
        if (!code) return callback();
        callback(Object.assign(new Error(`refused ${address.address}`), { responseCode: code }));
      },
    });
    const p = pool(s.port, { maxConnections: 1 });
    const outcomes = await sendAll(p, [
      'a@example.com',
      'busy@example.com',
      'b@example.com',
      'gone@example.com',
      'c@example.com',
    ]);
    p.close();
    expect(outcomes).toEqual(['sent', 'EENVELOPE 451', 'sent', 'EENVELOPE 550', 'sent']);
    expect(s.received.map((r) => r.to)).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
    expect(s.connections.size).toBe(1);
  });

  it('does not hand out a connection the server closed while it was idle', async () => {
    const s = await server();
    const p = pool(s.port, { maxConnections: 1 });
    expect(await sendAll(p, ['first@example.com'])).toEqual(['sent']);
    // The server ends the idle session (as a server's idle timeout does).
    for (const connection of (s.smtp as unknown as { connections: Set<{ close(): void }> })
      .connections)
      connection.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await sendAll(p, ['second@example.com'])).toEqual(['sent']);
    p.close();
    expect(s.connections.size).toBe(2);
  });

  // ESOCKET (the refused connect), like ECONNECTION, is a temporary failure to mail.ts.
  it('rejects the waiting messages when no connection can be made, and tries again for the next', async () => {
    const s = await server();
    const port = s.port;
    await new Promise<void>((resolve) => s.smtp.close(() => resolve()));
    servers = [];
    const p = pool(port, { maxConnections: 2 });
    expect(await sendAll(p, ['x@example.com', 'y@example.com', 'z@example.com'])).toEqual([
      'ESOCKET',
      'ESOCKET',
      'ESOCKET',
    ]);
    // The pool is not stuck with dead connections: a server back on the port gets the next one.
    const back = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      logger: false,
    });
    servers.push(back);
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    expect(await sendAll(p, ['again@example.com'])).toEqual(['sent']);
    p.close();
  });

  it('logs in with the credentials, and a failed login fails the message', async () => {
    const s = await server({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'postbox' && auth.password === 'secret')
          return callback(null, { user: 'postbox' });
        callback(new Error('Invalid username or password'));
      },
    });
    const good = pool(s.port, { auth: { user: 'postbox', pass: 'secret' } });
    expect(await sendAll(good, ['in@example.com'])).toEqual(['sent']);
    good.close();
    const bad = pool(s.port, { auth: { user: 'postbox', pass: 'wrong' } });
    expect(await sendAll(bad, ['out@example.com'])).toEqual(['EAUTH 535']);
    bad.close();
    expect(s.received.map((r) => r.to)).toEqual(['in@example.com']);
  });

  it('fails the messages still waiting when closed', async () => {
    const s = await server();
    const p = pool(s.port, { maxConnections: 1 });
    const sends = sendAll(p, ['one@example.com', 'two@example.com', 'three@example.com']);
    p.close();
    expect(await sends).toEqual(['sent', 'ECONNECTION', 'ECONNECTION']);
  });

  it("carries what nodemailer's composer wrote for a message mimeMessage does not cover", async () => {
    const s = await server();
    const p = pool(s.port);
    const composer = nodemailer.createTransport({
      streamTransport: true,
      buffer: true,
      newline: '\r\n',
    }) as unknown as Composer;
    const finished = await composedMessage(composer, {
      from: '"Zoë’s Letters" <news@example.com>',
      to: '"Zoë Ünal" <zoe@example.com>',
      subject: 'Grüße',
      text: 'Hallo Zoë',
      html: '<p>Hallo Zoë</p>',
      headers: { 'X-Note': 'héllo' },
      messageId: '<m1@example.com>',
    });
    expect(finished.envelope).toEqual({ from: 'news@example.com', to: ['zoe@example.com'] });
    expect(finished.messageId).toBe('<m1@example.com>');
    await p.send(finished.envelope, finished.message);
    p.close();
    expect(s.received.map((r) => r.to)).toEqual(['zoe@example.com']);
    const parsed = await simpleParser(s.received[0]!.text);
    expect(parsed.to).toMatchObject({ value: [{ name: 'Zoë Ünal', address: 'zoe@example.com' }] });
    expect(parsed.from?.value[0]?.name).toBe('Zoë’s Letters');
    expect(parsed.subject).toBe('Grüße');
    expect(parsed.text?.trim()).toBe('Hallo Zoë');
    // An encoded word (RFC 2047), which mailparser leaves as it is in a header it does not know.
    expect(parsed.headers.get('x-note')).toBe('=?UTF-8?Q?h=C3=A9llo?=');
    expect(parsed.messageId).toBe('<m1@example.com>');
  });
});
