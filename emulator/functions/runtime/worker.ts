// One Deno process per edge function: started on first use, kept warm, restarted after a crash or a code change.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { CpuBudget, processCpuMs } from './cpu.js';

/** The function could not start: syntax error, throw at import, no Deno.serve, boot timeout. */
export class BootError extends Error {}

export interface WorkerSpec {
  name: string;
  /** Absolute path of the function's entry file (`<functionsDir>/<name>/index.ts`). */
  entryFile: string;
  /** The process's working directory (the function's folder, as in the edge runtime). */
  cwd: string;
  denoPath: string;
  bootstrapPath: string;
  /** Deno's `--config`/`--import-map` flags for the function; worked out again at each start. */
  configArgs: () => Promise<string[]>;
  /** Built again for each start so `.env` edits apply on restart. */
  env: () => Promise<Record<string, string>>;
  bootTimeoutMs: number;
  /** V8 heap limit, as hosted's 256 MB per worker; exceeding it is a resource-limit failure. */
  memoryLimitMb: number;
  /** CPU time one request may use (hosted: 2 s); Infinity turns the check off. */
  cpuLimitMs: number;
  log: (message: string) => void;
}

/** Why a connection to the process broke: a resource limit stopped it, or it died / went away. */
export type LostReason = 'resource-limit' | 'crashed';

/** A ready process: where to send the request, and how to ask why it failed if it does. */
export interface WorkerLease {
  port: number;
  /** The request has its response headers (or failed): stop charging it CPU time. */
  done(): void;
  /**
   * Called when the connection broke. The exit event can arrive a moment after the socket
   * error, so this waits briefly for it: the next request must not go to a dying process.
   */
  lost(): Promise<LostReason>;
}

interface Run {
  ready: Promise<number>;
  child: ChildProcess | null;
  /** Resolves when the process has exited (or could not be spawned). */
  exited: Promise<void>;
  alive: boolean;
  /** Set when restart()/close() replaced this run, so waiters retry on the next one. */
  superseded: boolean;
  /** V8 ran out of heap, or a request used up its CPU time. */
  limitHit: boolean;
  budget: CpuBudget;
  cpuTimer: NodeJS.Timeout | undefined;
}

const STOP_GRACE_MS = 2000;
const EXIT_WAIT_MS = 5000;
const CPU_SAMPLE_MS = 200;

/** Deno permissions of a hosted function: network, env, and files (its own, plus /tmp). */
const DENO_FLAGS = [
  '--allow-net',
  '--allow-env',
  '--allow-read',
  '--allow-write',
  '--no-prompt',
  // Don't write deno.lock files into the project's function folders.
  '--no-lock',
];

export class FunctionWorker {
  private run: Run | null = null;
  private closed = false;

  constructor(private readonly spec: WorkerSpec) {}

  /** The warm process, starting one first if needed; rejects with BootError. */
  async acquire(): Promise<WorkerLease> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new BootError('the functions service is closed');
      if (!this.run || !this.run.alive) this.run = this.start();
      const run = this.run;
      try {
        const port = await run.ready;
        const ticket = run.budget.open();
        this.meterCpu(run);
        return { port, done: () => run.budget.close(ticket), lost: () => this.lost(run) };
      } catch (err) {
        // A reload killed the process we were waiting for: wait for the new code instead.
        if (run.superseded && attempt < 3) continue;
        throw err;
      }
    }
  }

  private async lost(run: Run): Promise<LostReason> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      run.exited,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS))),
    ]);
    clearTimeout(timer);
    return run.limitHit ? 'resource-limit' : 'crashed';
  }

  /** Samples the process's CPU time while requests are in flight; stops it past the limit. */
  private meterCpu(run: Run): void {
    const pid = run.child?.pid;
    if (run.cpuTimer || !pid || !Number.isFinite(this.spec.cpuLimitMs)) return;
    let last: number | null = null;
    let sampling = false;
    run.cpuTimer = setInterval(() => {
      if (sampling) return;
      if (run.budget.size === 0 || !run.alive) {
        clearInterval(run.cpuTimer);
        run.cpuTimer = undefined;
        return;
      }
      sampling = true;
      void processCpuMs(pid)
        .then((now) => {
          if (now === null) return;
          if (last !== null && run.budget.charge(now - last) && !run.limitHit) {
            run.limitHit = true;
            this.spec.log(`CPU time limit (${this.spec.cpuLimitMs} ms) exceeded; stopping`);
            if (this.run === run) this.run = null;
            // A spinning isolate may not get to handle SIGTERM; hosted terminates it outright too.
            void this.stop(run, { signal: 'SIGKILL' });
          }
          last = now;
        })
        .finally(() => (sampling = false));
    }, CPU_SAMPLE_MS);
  }

  /** Stops the current process; the next request starts one with the current code. */
  async restart(): Promise<void> {
    const run = this.run;
    this.run = null;
    if (run) await this.stop(run, { replaced: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.restart();
  }

  private start(): Run {
    const { spec } = this;
    let markExited: () => void = () => undefined;
    const run: Run = {
      ready: Promise.resolve(0),
      child: null,
      exited: new Promise<void>((resolve) => (markExited = resolve)),
      alive: true,
      superseded: false,
      limitHit: false,
      budget: new CpuBudget(spec.cpuLimitMs),
      cpuTimer: undefined,
    };
    const token = randomBytes(12).toString('hex');
    run.ready = (async () => {
      const env = await spec.env();
      const configArgs = await spec.configArgs();
      if (run.superseded) throw new BootError('restarted before it started');
      const boot = { entry: pathToFileURL(spec.entryFile).href, token };
      const args = [
        'run',
        ...DENO_FLAGS,
        ...configArgs,
        `--v8-flags=--max-old-space-size=${spec.memoryLimitMb}`,
        spec.bootstrapPath,
      ];
      const child = spawn(spec.denoPath, args, {
        cwd: spec.cwd,
        // Exactly this environment, nothing inherited (ProcessEnv's typing demands NODE_ENV).
        env: {
          ...env,
          POSTBOX_INTERNAL_FUNCTION_BOOT: JSON.stringify(boot),
        } as unknown as NodeJS.ProcessEnv,
        // stdin stays open for the process's lifetime: its EOF tells the function we are gone.
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      run.child = child;
      child.stdin?.on('error', () => undefined); // EPIPE after the child died: nothing to do
      return await new Promise<number>((resolve, reject) => {
        const fail = (message: string) => {
          clearTimeout(timer);
          reject(new BootError(message));
        };
        const timer = setTimeout(() => {
          fail(`did not start within ${spec.bootTimeoutMs} ms`);
          if (this.run === run) this.run = null;
          void this.stop(run, {});
        }, spec.bootTimeoutMs);
        const readyLine = `postbox:ready:${token}:`;
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.startsWith(readyLine)) {
            clearTimeout(timer);
            resolve(Number(line.slice(readyLine.length)));
          } else spec.log(line);
        });
        createInterface({ input: child.stderr! }).on('line', (line) => {
          // V8's last words before it aborts the process (exit by SIGTRAP).
          if (line.includes('Fatal JavaScript out of memory')) run.limitHit = true;
          spec.log(line);
        });
        child.once('error', (err) => fail(`could not run deno (${spec.denoPath}): ${err.message}`));
        // 'close' comes after stdout/stderr are drained, so V8's out-of-memory line has been seen.
        child.once('close', (code, signal) => {
          markExited();
          clearInterval(run.cpuTimer);
          run.alive = false;
          if (this.run === run) this.run = null;
          if (!run.superseded) spec.log(`process exited (${signal ?? `code ${code}`})`);
          fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
        });
      });
    })();
    // Boot failures are not cached: the next request boots again (the code may have been fixed).
    run.ready.catch((err: Error) => {
      if (!run.child) markExited();
      run.alive = false;
      if (this.run === run) this.run = null;
      if (!run.superseded) spec.log(`boot failed: ${err.message}`);
    });
    return run;
  }

  /**
   * Ends a run. `replaced` (a reload or close) makes requests waiting for its boot retry on the
   * next run; a run stopped for a limit or a boot timeout fails its waiters instead.
   */
  private async stop(
    run: Run,
    { signal = 'SIGTERM', replaced = false }: { signal?: NodeJS.Signals; replaced?: boolean },
  ): Promise<void> {
    if (replaced) run.superseded = true;
    run.alive = false;
    clearInterval(run.cpuTimer);
    const child = run.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await run.exited;
    clearTimeout(timer);
  }
}
