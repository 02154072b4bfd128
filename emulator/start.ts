// startEmulator(): boots the database, applies platform objects, migrations and seed, then serves the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { loadProjectConfig, type ProjectConfig } from './config.js';
import { authForSiteUrl } from './site-url.js';
import { createAuthService } from './auth/index.js';
import { createCronService } from './cron/service.js';
import { applyAutoExpose } from './db/auto-expose.js';
import { bootstrapPlatform } from './db/bootstrap.js';
import { runMigrations, runSeed } from './db/migrations.js';
import { openDatabase } from './db/open.js';
import { isPgliteDb } from './db/pglite.js';
import type { Db } from './db/types.js';
import { startWireServer } from './db/wire.js';
import { createFunctionsService } from './functions/service.js';
import { createGateway } from './gateway/gateway.js';
import { nodeListener } from './gateway/node-adapter.js';
import { answerWhileStarting } from './gateway/starting.js';
import { listenOnIpv6Loopback, type Ipv6Listener } from './gateway/dual-stack.js';
import { createRealtimeService } from './realtime/service.js';
import type { Service, ServiceName } from './gateway/types.js';
import { KEYS, type EmulatorKeys } from './keys.js';
import { createRestService } from './rest/index.js';
import { createStorageService } from './storage/service.js';
import { createMailer } from './mail/mailer.js';
import { startMail } from './mail/maildev.js';

export interface StartEmulatorOptions {
  /** Nothing on disk (PGlite in memory; a throw-away database with DATABASE_URL). */
  memory?: boolean;
  /** Drop existing data first. */
  reset?: boolean;
  /** PGlite data directory; default `<projectDir>/.postbox`. */
  dataDir?: string;
  /** API gateway port; 0 picks a free one. Default 54321. */
  port?: number;
  /** Postgres wire-protocol port for PGlite; 0 picks a free one, null turns it off. Default 54322. */
  dbPort?: number | null;
  /** Mail catcher ports; 0 picks free ones. Defaults 54324 (web/API) and 54325 (SMTP). */
  mailWebPort?: number;
  mailSmtpPort?: number;
  /**
   * Where functions send mail (POSTBOX_SMTP_HOST/PORT); default the mail catcher. Benchmarks point
   * it at a faster sink; Auth's own mail still goes to the catcher.
   */
  functionsSmtp?: { host: string; port: number };
  /** Native Postgres instead of PGlite. Default: process.env.DATABASE_URL. */
  databaseUrl?: string;
  /** Folder holding `supabase/`. Default: the current directory. */
  projectDir?: string;
  /** Folder of edge functions; default `<projectDir>/supabase/functions`. */
  functionsDir?: string;
  /** Watch functions for changes and reload them (npm run dev). */
  watchFunctions?: boolean;
  /**
   * Where the site is served (npm run dev --port): Auth's site_url and redirect allow-list follow
   * it (see site-url.ts) and the functions get it as POSTBOX_SITE_URL, over `.env`. Default:
   * config.toml's site_url, and the functions' own setting.
   */
  siteUrl?: string;
  host?: string;
  /**
   * Run each pending migration and the seed first as a stand-in for hosted's non-superuser
   * `postgres` (rolled back), failing the start where hosted would refuse them. Default: the
   * POSTBOX_CHECK_AS_HOSTED_POSTGRES=1 environment variable; off otherwise.
   */
  checkAsHostedPostgres?: boolean;
  log?: (message: string) => void;
}

export interface RunningEmulator {
  /** Gateway URL, e.g. http://127.0.0.1:54321 — what SUPABASE_URL is set to. */
  url: string;
  keys: EmulatorKeys;
  /** Postgres connection URL (wire protocol), or null when it is off. */
  dbUrl: string | null;
  mail: { url: string; smtpPort: number } | null;
  config: ProjectConfig;
  /** For the emulator's own unit tests only; tests of behaviour go through HTTP. */
  db: Db;
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}

/**
 * The gateway's port on `host`, and on 127.0.0.1 also the same port on ::1 (see dual-stack.ts).
 * A picked port (0) that is free on one loopback but taken on the other is picked again.
 */
async function listenGateway(
  server: Server,
  requested: number,
  host: string,
  log: (message: string) => void,
): Promise<{ port: number; v6: Ipv6Listener | null }> {
  for (let attempt = 1; ; attempt++) {
    const port = await listen(server, requested, host);
    if (host !== '127.0.0.1') return { port, v6: null };
    try {
      return { port, v6: await listenOnIpv6Loopback(server, port, log) };
    } catch (err) {
      await new Promise<void>((done) => server.close(() => done()));
      if (requested !== 0 || attempt >= 5) {
        throw new Error(`gateway port ${port} is taken on [::1]: ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
  }
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => undefined);
  const host = options.host ?? '127.0.0.1';
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const supabaseDir = join(projectDir, 'supabase');
  const config = await loadProjectConfig(join(supabaseDir, 'config.toml'));
  if (options.siteUrl) config.auth = authForSiteUrl(config.auth, options.siteUrl);
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((err) => log(`shutdown step failed: ${(err as Error).message}`));
    }
  };

  try {
    const opened = await openDatabase({
      databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL,
      memory: options.memory,
      reset: options.reset,
      dataDir: options.dataDir ?? join(projectDir, '.postbox'),
    });
    cleanups.push(() => opened.close());
    const { db } = opened;
    log(`database: ${db.kind}${opened.fresh ? ' (fresh)' : ''}`);

    await bootstrapPlatform(db);
    await applyAutoExpose(db, config.api.autoExposeNewTables);
    // Opt-in: each migration and the seed first runs as hosted's non-superuser `postgres`.
    const hostedCheck =
      options.checkAsHostedPostgres ?? process.env.POSTBOX_CHECK_AS_HOSTED_POSTGRES === '1';
    const applied = await runMigrations(db, join(supabaseDir, 'migrations'), { hostedCheck });
    if (applied.length) log(`migrations applied: ${applied.map((m) => m.version).join(', ')}`);
    const seedPath = join(supabaseDir, 'seed.sql');
    if (config.seedEnabled && (await runSeed(db, seedPath, undefined, { hostedCheck }))) {
      log('seed.sql applied');
    }
    // PGlite has no server of its own: serve it so psql and SUPABASE_DB_URL work.
    if (isPgliteDb(db) && options.dbPort !== null) {
      const wire = await startWireServer({ db, port: options.dbPort ?? 54322, host, log });
      cleanups.push(() => wire.close());
      opened.url = wire.url;
    }

    // Listen first so every service knows the public URL (port 0 picks one). Until the services
    // are wired, requests get a 503 with Retry-After instead of waiting on a listener-less socket.
    const server = createServer();
    const starting = answerWhileStarting(server);
    const { port, v6 } = await listenGateway(server, options.port ?? 54321, host, log);
    const url = `http://${host}:${port}`;
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    );
    if (v6) cleanups.push(() => v6.close());

    const mail = await startMail({
      host,
      webPort: options.mailWebPort ?? 54324,
      smtpPort: options.mailSmtpPort ?? 54325,
      log,
    });
    cleanups.push(() => mail.stop());
    const mailer = createMailer({ host, port: mail.smtpPort });

    const services: Partial<Record<ServiceName, Service>> = {};
    // Services are wired here, one line each, as they are built.
    services.auth = createAuthService({ db, config, keys: KEYS, url, mailer });
    services.rest = createRestService({ db, config, keys: KEYS });
    // Storage: objects under <dataDir>/storage; a temp dir removed on stop when nothing may touch disk.
    const storageDataDir = options.memory
      ? null
      : (options.dataDir ?? join(projectDir, '.postbox'));
    services.storage = createStorageService({
      db,
      config,
      keys: KEYS,
      url,
      dataDir: storageDataDir,
      fileSizeLimit: config.storageFileSizeLimit,
    });
    const realtime = createRealtimeService({ db, config, keys: KEYS, url });
    services.realtime = realtime;
    services.functions = createFunctionsService({
      functionsDir: options.functionsDir ?? join(supabaseDir, 'functions'),
      config: config.functions,
      url,
      keys: KEYS,
      dbUrl: opened.url,
      // The mail catcher's SMTP server, whose port may have been picked at start.
      extraEnv: {
        POSTBOX_SMTP_HOST: options.functionsSmtp?.host ?? host,
        POSTBOX_SMTP_PORT: String(options.functionsSmtp?.port ?? mail.smtpPort),
        ...(options.siteUrl ? { POSTBOX_SITE_URL: config.auth.siteUrl } : {}),
      },
      watch: options.watchFunctions,
      log,
    });

    for (const service of Object.values(services)) {
      if (service.close) cleanups.push(() => service.close!());
    }
    const gateway = createGateway({ keys: KEYS, services });
    starting.ready(
      nodeListener(gateway, () => url),
      (req, socket, head) => realtime.upgrade(req, socket, head),
    );
    // pg_cron/pg_net stand-ins: jobs and HTTP requests run once the gateway they may call is up.
    const cron = createCronService({ db, log, gatewayUrl: url });
    cleanups.push(() => cron.stop());
    await cron.start();

    return {
      url,
      keys: KEYS,
      dbUrl: opened.url,
      mail: { url: mail.url, smtpPort: mail.smtpPort },
      config,
      db,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
