// TOTP factors as GoTrue makes them (pquerna/otp's defaults): a 20-byte base32 secret, the
// otpauth:// URI, its QR code as SVG, and RFC 6238 codes (SHA-1, 6 digits, 30 s, one step of skew).
import { createHmac, randomBytes } from 'node:crypto';
import qrcode from 'qrcode-generator';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(ch);
    if (index === -1) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 20 random bytes, base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code for time step `counter` (RFC 4226 dynamic truncation, 6 digits). */
export function hotp(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = mac[mac.length - 1]! & 15;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Whether `code` is the code of now's 30 s step or of one step either side. */
export function totpValid(secret: string, code: string, now = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const step = Math.floor(now / 1000 / 30);
  return [step - 1, step, step + 1].some((s) => hotp(secret, s) === code);
}

/** pquerna/otp's Key.String(): `otpauth://totp/<issuer>:<account>?…` with sorted parameters. */
export function totpUri(issuer: string, account: string, secret: string): string {
  const query = new URLSearchParams([
    ['algorithm', 'SHA1'],
    ['digits', '6'],
    ['issuer', issuer],
    ['period', '30'],
    ['secret', secret],
  ]);
  const label = `${issuer}:${account}`.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/g, (c) =>
    encodeURIComponent(c),
  );
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}

/** The URI as an SVG QR code (high error correction, as upstream encodes it). */
export function qrSvg(uri: string): string {
  const qr = qrcode(0, 'H');
  qr.addData(uri, 'Byte');
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 4 });
}
