// Start-up as a client sees it: polled from the first moment, no request to the gateway goes unanswered.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestProject, type TestProject } from './test-project.js';

interface Answer {
  path: string;
  status: number | string;
  retryAfter?: string;
}

/** A port nobody listens on right now, for the child to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** One request on a fresh connection; a hang shows as 'timeout' after `timeoutMs`. */
function poll(port: number, path: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ path, status: res.statusCode!, retryAfter: res.headers['retry-after'] }),
      );
    });
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ path, status: 'timeout' });
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ path, status: err.code ?? 'error' }));
    req.end();
  });
}

describe('emulator start-up', () => {
  let child: ChildProcess | undefined;
  let project: TestProject | undefined;
  afterAll(async () => {
    child?.kill('SIGTERM');
    await project?.remove();
  });

  it('answers every request that arrives while it starts, then /health with 200', async () => {
    project = await createTestProject('startup');
    const port = await freePort();
    // What `npm run emulator -- --memory --port N` runs (main.ts), with the database, wire and
    // mail ports left to the system so the test never collides with a running emulator.
    const boot = `
      import { startEmulator } from './emulator/index.ts';
      await startEmulator({ memory: true, projectDir: ${JSON.stringify(project.dir)},
        port: ${port}, dbPort: 0, mailWebPort: 0, mailSmtpPort: 0 });
      console.log('started');`;
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', boot], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let started = false;
    child.stdout!.on('data', (chunk: Buffer) => (started ||= chunk.includes('started')));

    const answers: Array<Promise<Answer>> = [];
    let healthy = false;
    const deadline = Date.now() + 110_000;
    while (!healthy && Date.now() < deadline) {
      expect(child.exitCode).toBeNull();
      for (const path of ['/health', '/rest/v1/']) {
        const answer = poll(port, path, 5_000);
        answer.then((a) => (healthy ||= a.path === '/health' && a.status === 200));
        answers.push(answer);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const all = await Promise.all(answers);
    expect(healthy).toBe(true);
    expect(started).toBe(true);
    // Before listening: refused. While starting: 503 with Retry-After. Then the real answers.
    const answered = all.filter((a) => a.status !== 'ECONNREFUSED');
    expect(answered.filter((a) => a.status === 'timeout')).toEqual([]);
    for (const a of answered) {
      if (a.status === 503) expect(a.retryAfter).toBe('1');
      else expect([200, 401]).toContain(a.status);
    }
  }, 120_000);
});
