// Starts MailDev, the mail catcher every email from Auth or an edge function lands in (web UI + REST API).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailDev } from 'maildev';

export interface StartMailOptions {
  host?: string;
  /** Web UI and REST API port; 0 picks a free one. */
  webPort: number;
  /** SMTP port; 0 picks a free one. */
  smtpPort: number;
  log?: (message: string) => void;
}

export interface RunningMail {
  /** Web UI root; MailDev 3 serves its REST API under `${url}/api` (e.g. GET `${url}/api/email`). */
  url: string;
  smtpPort: number;
  stop(): Promise<void>;
}

export async function startMail(options: StartMailOptions): Promise<RunningMail> {
  const host = options.host ?? '127.0.0.1';
  // MailDev writes every message's .eml into its mail directory even with in-memory storage, and
  // defaults to a folder shared by all instances; a private temp folder keeps the repo clean and
  // concurrent emulators apart.
  const mailDirectory = await mkdtemp(join(tmpdir(), 'postbox-mail-'));
  const maildev = new MailDev({
    smtp: options.smtpPort,
    ip: host,
    web: options.webPort,
    webIp: host,
    mailDirectory,
    silent: true,
  });
  let servers;
  // MailDev's API server announces itself with console.info even when `silent`; the emulator
  // reports the mail URL through `log` instead, so that one line is dropped while it starts.
  const info = console.info;
  console.info = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('MailDev API running at')) return;
    info(...args);
  };
  try {
    servers = await maildev.start();
  } catch (err) {
    await rm(mailDirectory, { recursive: true, force: true });
    throw err;
  } finally {
    console.info = info;
  }
  const smtpPort = servers.smtp.getAddress().port;
  const webPort = servers.api?.getAddress()?.port ?? options.webPort;
  const url = `http://${host}:${webPort}`;
  options.log?.(`mail: ${url} (SMTP ${host}:${smtpPort})`);
  return {
    url,
    smtpPort,
    async stop() {
      await maildev.stop();
      await rm(mailDirectory, { recursive: true, force: true });
    },
  };
}
