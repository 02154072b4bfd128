// Starts a process-queue run now (after a send, resume or retry) instead of waiting up to 10 s for
// the scheduler. The request is not awaited: the caller answers at once, the run goes on.
import { env } from './env.ts';

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } };

export function kickQueue(): void {
  const run = fetch(env.functionUrl('process-queue'), {
    method: 'POST',
    headers: env.serviceHeaders({ 'Content-Type': 'application/json' }),
    body: '{}',
  })
    .then((response) => response.text())
    .catch((error) => console.error('starting process-queue failed', error));
  (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(run);
}
