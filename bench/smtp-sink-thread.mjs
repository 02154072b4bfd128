// The send benchmark's SMTP sink, run in a worker thread (plain JS, so it loads under tsx and
// vitest alike): accepts every message, keeps nothing but counts, and answers stats on request.
import { createServer } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const END_OF_DATA = Buffer.from('\r\n.\r\n');
const now = () => performance.timeOrigin + performance.now();

/** Messages accepted per recipient address, since the last reset. */
let delivered = new Map();
let messages = 0;
let bytes = 0;
/** Acceptance times (epoch ms) of every message since the last reset, for rates over windows. */
let times = new Float64Array(1 << 16);
let connections = 0;

function accepted(recipients, size) {
  if (messages === times.length) {
    const grown = new Float64Array(times.length * 2);
    grown.set(times);
    times = grown;
  }
  times[messages++] = now();
  bytes += size;
  for (const address of recipients) delivered.set(address, (delivered.get(address) ?? 0) + 1);
}

function session(socket) {
  connections += 1;
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  let inData = false;
  let dataBytes = 0;
  // The last four bytes seen in DATA, so a terminator split across chunks is still found; the
  // message starts as if after a line break, so an empty message (".\r\n") ends it at once.
  let tail = Buffer.from('\r\n');
  let recipients = [];
  const reply = (text) => socket.write(text + '\r\n');

  const command = (line) => {
    const verb = line.slice(0, 4).toUpperCase();
    if (verb === 'EHLO') reply('250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 SMTPUTF8');
    else if (verb === 'HELO') reply('250 sink');
    else if (verb === 'MAIL') {
      recipients = [];
      reply('250 OK');
    } else if (verb === 'RCPT') {
      const match = /<([^>]*)>/.exec(line);
      recipients.push((match ? match[1] : line.slice(8)).trim().toLowerCase());
      reply('250 OK');
    } else if (verb === 'DATA') {
      inData = true;
      dataBytes = 0;
      tail = Buffer.from('\r\n');
      reply('354 go ahead');
    } else if (verb === 'RSET') {
      recipients = [];
      reply('250 OK');
    } else if (verb === 'NOOP') reply('250 OK');
    else if (verb === 'QUIT') {
      reply('221 bye');
      socket.end();
    } else reply('502 not implemented');
  };

  socket.on('data', (chunk) => {
    let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    pending = Buffer.alloc(0);
    while (buf.length) {
      if (inData) {
        // The terminator may straddle the previous chunk (tail) and this one: look there first.
        const boundary = Buffer.concat([tail, buf.subarray(0, END_OF_DATA.length - 1)]);
        const across = boundary.indexOf(END_OF_DATA);
        const within = across < 0 ? buf.indexOf(END_OF_DATA) : -1;
        if (across < 0 && within < 0) {
          dataBytes += buf.length;
          tail = Buffer.from(Buffer.concat([tail, buf.subarray(-4)]).subarray(-4));
          break;
        }
        // Bytes of buf up to and including the terminator.
        const consumed =
          across >= 0 ? across + END_OF_DATA.length - tail.length : within + END_OF_DATA.length;
        dataBytes += consumed;
        inData = false;
        accepted(recipients, dataBytes);
        recipients = [];
        reply('250 OK queued');
        buf = buf.subarray(consumed);
        continue;
      }
      const eol = buf.indexOf('\r\n');
      if (eol < 0) {
        pending = Buffer.from(buf);
        break;
      }
      command(buf.toString('latin1', 0, eol));
      buf = buf.subarray(eol + 2);
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => (connections -= 1));
  reply('220 sink ESMTP');
}

const server = createServer(session);
server.listen(0, workerData?.host ?? '127.0.0.1', () => {
  parentPort.postMessage({ type: 'listening', port: server.address().port });
});

parentPort.on('message', (message) => {
  if (message.type === 'stats') {
    let duplicates = 0;
    for (const count of delivered.values()) if (count > 1) duplicates += 1;
    parentPort.postMessage({
      type: 'stats',
      id: message.id,
      messages,
      bytes,
      recipients: delivered.size,
      duplicates,
      connections,
      times: times.slice(0, messages),
      ...(message.addresses ? { addresses: [...delivered.entries()] } : {}),
    });
    if (message.reset) {
      delivered = new Map();
      messages = 0;
      bytes = 0;
    }
  } else if (message.type === 'stop') {
    server.close();
    parentPort.close();
  }
});
