// The mail catcher: mail sent through the emulator's mailer is readable through MailDev's REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../index.js';
import { createMailer } from './mailer.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
});
afterAll(async () => {
  await emu?.stop();
});

describe('mail catcher', () => {
  it('binds real ports when asked for port 0', () => {
    expect(emu.mail).not.toBeNull();
    expect(emu.mail!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.mail!.url).not.toMatch(/:0$/);
    expect(emu.mail!.smtpPort).toBeGreaterThan(0);
  });

  it('delivers a message sent by the mailer to the REST API', async () => {
    const mailer = createMailer({ host: '127.0.0.1', port: emu.mail!.smtpPort });
    const to = `reader-${Date.now()}@example.com`;
    await mailer.send({
      to,
      subject: 'Hello from the mailer',
      text: 'plain body 424242',
      html: '<p>html body 424242</p>',
      headers: { 'X-Postbox-Test': 'yes' },
    });
    const res = await fetch(`${emu.mail!.url}/api/email`);
    expect(res.status).toBe(200);
    const emails = (await res.json()) as Array<{
      subject: string;
      text: string;
      html: string;
      from: Array<{ address: string; name: string }>;
      to: Array<{ address: string }>;
      headers: Record<string, string>;
    }>;
    const mail = emails.find((e) => e.to[0]?.address === to);
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Hello from the mailer');
    expect(mail!.text.trim()).toBe('plain body 424242');
    expect(mail!.html).toContain('html body 424242');
    expect(mail!.from[0]).toEqual({ address: 'noreply@postbox.local', name: 'Postbox' });
    expect(mail!.headers['x-postbox-test']).toBe('yes');
  });

  it('serves the web UI', async () => {
    const res = await fetch(emu.mail!.url + '/', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
