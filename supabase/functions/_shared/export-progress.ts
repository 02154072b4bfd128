// Progress of a long export, for the page that started it: rows written so far, broadcast on the
// public Realtime topic `export-progress:<id>`, where <id> is a random UUID the page chose and
// listens on. The payload is a row count and nothing else, so a public topic is enough.
import { exportProgressTopic } from '../../../lib/export-progress-topic.ts';
import { env } from './env.ts';
import { progressReporter, type ProgressReporter } from './throttle.ts';

/** At most this often: a 1,000,000-row export writes a page of 5,000 rows every 20-150 ms. */
const INTERVAL_MS = 500;

async function broadcast(id: string, rows: number): Promise<void> {
  const response = await fetch(`${env.supabaseUrl}/realtime/v1/api/broadcast`, {
    method: 'POST',
    headers: env.serviceHeaders({ 'Content-Type': 'application/json' }),
    body: JSON.stringify({
      messages: [
        { topic: exportProgressTopic(id), event: 'progress', payload: { rows }, private: false },
      ],
    }),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the broadcast endpoint answered ${response.status}`);
}

/**
 * A reporter for `rows` written so far, or a no-op without an id. Sends the first report at once,
 * then at most one per interval; a failed send (refused, or answered with an error status) is
 * logged once and never fails the export.
 */
export function exportProgress(id: string | null): ProgressReporter<number> {
  if (!id) return Object.assign(() => {}, { settle: () => Promise.resolve() });
  return progressReporter({
    send: (rows: number) => broadcast(id, rows),
    warn: (error) => console.warn('export progress could not be broadcast', error),
    intervalMs: INTERVAL_MS,
  });
}
