// The Functions service `/functions/v1`: each `<functionsDir>/<name>/index.ts` runs in its own real Deno process.
import { stat } from 'node:fs/promises';
import { Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayContext, Service } from '../gateway/types.js';
import type { EmulatorKeys } from '../keys.js';
import { buildFunctionEnv, platformVariables, readDotenv } from './env.js';
import * as errors from './errors.js';
import { CONFIG_FILES, denoConfigArgs, ENTRY_FILES, SHARED_IMPORT_MAP } from './layout.js';
import { isAllowedMethod, routeFunction } from './paths.js';
import { resolveDenoBinary } from './runtime/deno-binary.js';
import { forwardToWorker, IdleTimeoutError, WorkerGoneError } from './runtime/proxy.js';
import { watchFunctions, type FunctionsWatcher } from './runtime/watch.js';
import { BootError, FunctionWorker, type WorkerLease } from './runtime/worker.js';
import { checkFunctionAuthorization } from './verify.js';

export interface FunctionsServiceOptions {
  /** Folder holding `<name>/index.ts`, `_shared/` and `.env` (default `supabase/functions`). */
  functionsDir: string;
  /** `[functions.<name>]` from config.toml; verify_jwt defaults to true. */
  config: Record<string, { verifyJwt: boolean }>;
  /** Gateway URL: what functions get as SUPABASE_URL. */
  url: string;
  keys: EmulatorKeys;
  /** Postgres URL for SUPABASE_DB_URL, when the emulator exposes one. */
  dbUrl: string | null;
  /** Restart a function's process when its files (or `_shared/`, `.env`) change. */
  watch?: boolean;
  /** Hosted: 150 s until response headers, then 504 IDLE_TIMEOUT. */
  idleTimeoutMs?: number;
  /** First start may download npm packages, so this is generous. */
  bootTimeoutMs?: number;
  /** V8 heap per function process; hosted allows 256 MB. */
  memoryLimitMb?: number;
  /** CPU time per request before the worker is stopped with 546; hosted allows 2 s. */
  cpuLimitMs?: number;
  /**
   * Variables only the running emulator knows, e.g. `POSTBOX_SMTP_PORT` of its mail catcher;
   * they win over `.env` (a port picked at start beats a stale file) but not over SUPABASE_*.
   */
  extraEnv?: Record<string, string>;
  /** The emulator's environment: POSTBOX_* and what Deno needs pass through. */
  hostEnv?: Record<string, string | undefined>;
  denoPath?: string;
  log?: (message: string) => void;
}

const BOOTSTRAP = join(dirname(fileURLToPath(import.meta.url)), 'runtime', 'bootstrap.ts');

async function firstFile(dir: string, names: string[]): Promise<string | null> {
  for (const name of names) {
    const file = join(dir, name);
    try {
      if ((await stat(file)).isFile()) return file;
    } catch {
      // Not there; try the next candidate.
    }
  }
  return null;
}

export function createFunctionsService(opts: FunctionsServiceOptions): Service {
  const log = opts.log ?? (() => undefined);
  const denoPath = opts.denoPath ?? resolveDenoBinary();
  const idleTimeoutMs = opts.idleTimeoutMs ?? 150_000;
  const bootTimeoutMs = opts.bootTimeoutMs ?? 60_000;
  const hostEnv = opts.hostEnv ?? process.env;
  const agent = new Agent({ keepAlive: true });
  const workers = new Map<string, { worker: FunctionWorker; entryFile: string }>();
  const platform = platformVariables({
    url: opts.url,
    anonKey: opts.keys.anon,
    serviceRoleKey: opts.keys.serviceRole,
    publishableKey: opts.keys.publishable,
    secretKey: opts.keys.secret,
    dbUrl: opts.dbUrl,
  });

  async function functionEnv(name: string): Promise<Record<string, string>> {
    const secrets = await readDotenv(join(opts.functionsDir, '.env'));
    const { env, skipped } = buildFunctionEnv({
      host: hostEnv,
      secrets,
      emulator: opts.extraEnv,
      platform,
    });
    for (const key of skipped)
      log(`[functions/${name}] .env: ${key} starts with SUPABASE_, skipped`);
    return env;
  }

  function workerFor(name: string, entryFile: string): FunctionWorker {
    const known = workers.get(name);
    if (known && known.entryFile === entryFile) return known.worker;
    if (known) void known.worker.close(); // index.js replaced by index.ts, say
    const cwd = dirname(entryFile);
    const worker = new FunctionWorker({
      name,
      entryFile,
      cwd,
      denoPath,
      bootstrapPath: BOOTSTRAP,
      configArgs: async () =>
        denoConfigArgs(
          await firstFile(cwd, CONFIG_FILES),
          await firstFile(opts.functionsDir, [SHARED_IMPORT_MAP]),
        ),
      env: () => functionEnv(name),
      bootTimeoutMs,
      memoryLimitMb: opts.memoryLimitMb ?? 256,
      cpuLimitMs: opts.cpuLimitMs ?? 2000,
      log: (line) => log(`[functions/${name}] ${line}`),
    });
    workers.set(name, { worker, entryFile });
    return worker;
  }

  async function restart(names: Iterable<string>) {
    await Promise.all(
      [...names].map(async (name) => {
        const known = workers.get(name);
        if (!known) return;
        // The next request starts a process on the new code (and re-reads deno.json and .env).
        await known.worker.restart();
        log(`[functions/${name}] reloaded`);
      }),
    );
  }

  const watcher: FunctionsWatcher | null = opts.watch
    ? watchFunctions(
        opts.functionsDir,
        (target) => void restart('all' in target ? [...workers.keys()] : target.names),
        (message) => log(`[functions] ${message}`),
      )
    : null;

  async function handle(req: Request, ctx: GatewayContext): Promise<Response> {
    if (!isAllowedMethod(req.method)) return errors.methodNotAllowed();
    const url = new URL(req.url);
    const route = routeFunction(url);
    if (!route) return errors.notFound();
    const entryFile = await firstFile(join(opts.functionsDir, route.name), ENTRY_FILES);
    if (!entryFile) return errors.notFound();

    const verify = opts.config[route.name]?.verifyJwt ?? true;
    const auth = await checkFunctionAuthorization(
      req.method,
      req.headers.get('authorization'),
      verify,
    );
    if (!auth.ok) return errors.unauthorized(auth.errorCode, auth.message);

    const worker = workerFor(route.name, entryFile);
    let lease: WorkerLease;
    try {
      lease = await worker.acquire();
    } catch (err) {
      if (err instanceof BootError) return errors.bootError();
      throw err;
    }
    try {
      const res = await forwardToWorker(req, {
        port: lease.port,
        path: route.forwardPath,
        remoteAddress: ctx.remoteAddress,
        idleTimeoutMs,
        agent,
      });
      lease.done();
      return errors.tagFunctionResponse(res);
    } catch (err) {
      lease.done();
      if (err instanceof WorkerGoneError) {
        const reason = await lease.lost();
        return reason === 'resource-limit' ? errors.workerLimit() : errors.workerError();
      }
      if (err instanceof IdleTimeoutError)
        return errors.idleTimeout(Math.round(idleTimeoutMs / 1000));
      throw err;
    }
  }

  return {
    async handle(req, ctx) {
      try {
        return await handle(req, ctx);
      } catch (err) {
        // An emulator bug, not a function's: always reported, never leaked to the client.
        console.error(`[functions] ${req.method} ${new URL(req.url).pathname} failed`, err);
        return errors.internalError();
      }
    },
    async close() {
      watcher?.close();
      await Promise.all([...workers.values()].map(({ worker }) => worker.close()));
      workers.clear();
      agent.destroy();
    },
  };
}
