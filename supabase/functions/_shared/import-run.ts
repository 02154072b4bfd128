// One run of a CSV import (SPEC §5, §9): on the first run, check size and row count and read the
// header before any row is written; then stream the file from the resume offset through csv-parse
// and hand batches of 5,000 rows to the database (import-batches.ts), until the file ends or the
// run's budget is spent — a platform request may use only 2 s of CPU, so a long file takes several
// runs.
import { rpc } from './db.ts';
import { parseCsv, type CsvInfo } from './deps.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { CsvFileError, readHeader, scanCsv, type Delimiter } from './csv-scan.ts';
import {
  newlinesIn,
  planColumns,
  textAfterClosingQuote,
  toRow,
  type BadRow,
  type ImportRow,
} from './csv-rows.ts';
import { BatchPipeline, type ImportBatch } from './import-batches.ts';

export interface ImportRecord {
  id: string;
  object_path: string;
  status: string;
  total_rows: number | null;
  processed_rows: number;
  resume_offset: number;
  resume_line: number;
  columns: string[] | null;
  delimiter: Delimiter | null;
  [key: string]: unknown;
}

function numberSetting(name: string, fallback: number): number {
  const value = Number(Deno.env.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export const importSettings = {
  maxBytes: () => numberSetting('POSTBOX_IMPORT_MAX_BYTES', 50 * 1024 * 1024),
  maxRows: () => numberSetting('POSTBOX_IMPORT_MAX_ROWS', 1_000_000),
  leaseSeconds: () => numberSetting('POSTBOX_IMPORT_LEASE_SECONDS', 60),
  budgetMs: () => numberSetting('POSTBOX_IMPORT_BUDGET_MS', 8_000),
  /** SPEC §9: 5,000; smaller only so tests on the slow embedded database stay short. */
  batchRows: () => numberSetting('POSTBOX_IMPORT_BATCH_ROWS', 5_000),
  /** Batches applied at once by one run (each is its own transaction on its own connection). */
  parallel: () => Math.floor(numberSetting('POSTBOX_IMPORT_PARALLEL', 3)),
};

function objectUrl(path: string): string {
  const key = path.split('/').map(encodeURIComponent).join('/');
  return `${env.supabaseUrl}/storage/v1/object/imports/${key}`;
}

/** The object's size from its metadata, or null when there is no such upload. */
async function objectSize(path: string): Promise<number | null> {
  const response = await fetch(objectUrl(path), { method: 'HEAD', headers: env.serviceHeaders() });
  await response.body?.cancel();
  if (!response.ok) return null;
  return Number(response.headers.get('content-length') ?? '0');
}

/** The file from `offset` on, streamed (a Range request past the header or the last batch). */
async function openObject(path: string, offset: number): Promise<ReadableStream<Uint8Array>> {
  const headers = env.serviceHeaders(offset > 0 ? { Range: `bytes=${offset}-` } : {});
  const response = await fetch(objectUrl(path), { headers });
  if (!response.ok || !response.body || (offset > 0 && response.status !== 206)) {
    await response.body?.cancel();
    // A range that starts at the end of the file answers 416: nothing is left to read.
    if (response.status === 416 || response.status === 400) return new Blob([]).stream();
    throw new CsvFileError('The uploaded file was not found.');
  }
  return response.body;
}

export type RunOutcome = 'done' | 'failed' | 'more' | 'lost';

export interface RunOptions {
  /** Test hook: stop after this many batches without giving the lease back, as a crash would. */
  crashAfterBatches?: number;
}

/** Checks the file and records its header and row count (the first run only). */
async function start(imp: ImportRecord, token: string): Promise<ImportRecord> {
  const maxBytes = importSettings.maxBytes();
  const maxRows = importSettings.maxRows();
  const size = await objectSize(imp.object_path);
  if (size === null) throw new CsvFileError('The uploaded file was not found.');
  if (size > maxBytes) {
    throw new CsvFileError(`The file is larger than ${formatBytes(maxBytes)}.`);
  }
  const scan = await scanCsv(await openObject(imp.object_path, 0), maxRows);
  if (scan.exceeded) {
    throw new CsvFileError(`The file has more than ${maxRows.toLocaleString('en-US')} rows.`);
  }
  const { columns, delimiter } = readHeader(scan.header);
  return await rpc<ImportRecord>('start_import', {
    p_import_id: imp.id,
    p_token: token,
    p_total_rows: scan.rows,
    p_columns: columns,
    p_delimiter: delimiter,
    p_offset: scan.headerEnd,
    p_line: scan.headerLine,
  });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

export async function runImport(
  initial: ImportRecord,
  token: string,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const started = performance.now();
  try {
    const imp = initial.columns ? initial : await start(initial, token);
    return await processRows(imp, token, started, options);
  } catch (error) {
    if (error instanceof CsvFileError) {
      await rpc('fail_import', {
        p_import_id: initial.id,
        p_token: token,
        p_reason: error.message,
      });
      return 'failed';
    }
    // Another run took the import over (our lease ran out): it carries on, we stop.
    if (error instanceof AppError && error.code === 'conflict') return 'lost';
    console.error('import run failed', error);
    // Give the lease back so the import can be resumed at once by calling the function again.
    await rpc('release_import', { p_import_id: initial.id, p_token: token }).catch(() => undefined);
    throw error;
  }
}

type Parsed = { record: string[]; info: CsvInfo; raw: string };

async function processRows(
  start: ImportRecord,
  token: string,
  started: number,
  options: RunOptions,
): Promise<RunOutcome> {
  const imp = start;
  const plan = planColumns(imp.columns ?? []);
  const baseOffset = Number(imp.resume_offset);
  const baseLine = imp.resume_line;
  const body = await openObject(imp.object_path, baseOffset);
  const parser = parseCsv({
    delimiter: imp.delimiter ?? ',',
    bom: baseOffset === 0,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n'],
    relax_quotes: true,
    // Each record's text too, to find a quoted field with text after its closing quote.
    raw: true,
  });
  let rows: ImportRow[] = [];
  let bad: BadRow[] = [];
  let records = 0;
  let lastBytes = 0;
  let lastLines = 0;
  const pump = (async () => {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || parser.destroyed) break;
        if (!parser.write(value)) {
          // A stopped run destroys the parser: 'close' then ends the wait that 'drain' never would.
          await new Promise<void>((resolve) => {
            const done = () => {
              parser.off('drain', done);
              parser.off('close', done);
              resolve();
            };
            parser.once('drain', done);
            parser.once('close', done);
          });
        }
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  })();

  // The parser reads on while earlier batches are reserved and applied (see import-batches.ts).
  const pipeline = new BatchPipeline(
    imp.id,
    token,
    importSettings.parallel(),
    importSettings.leaseSeconds(),
  );
  let from = imp.processed_rows;
  let sent = 0;
  const batch = (done: boolean): ImportBatch => {
    const next = {
      from,
      records,
      offset: baseOffset + lastBytes,
      line: baseLine + lastLines,
      rows,
      bad,
      done,
    };
    from += records;
    rows = [];
    bad = [];
    records = 0;
    sent++;
    return next;
  };
  const report = () => {
    if (Deno.env.get('POSTBOX_IMPORT_TIMING') !== 'on') return;
    const total = performance.now() - started;
    console.log(
      `import ${imp.id} run: ${JSON.stringify({ totalMs: Math.round(total), ...roundAll({ ...pipeline.timing, batches: pipeline.applied }) })}`,
    );
  };

  const batchRows = importSettings.batchRows();
  let stopped = false;
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<Parsed>) {
      const line = baseLine + info.lines - newlinesIn(record);
      const row = textAfterClosingQuote(raw, imp.delimiter ?? ',')
        ? { line, reason: 'text after the closing quote of a field' }
        : toRow(record, line, plan);
      if ('email' in row) rows.push(row);
      else bad.push(row);
      records++;
      lastBytes = info.bytes;
      lastLines = info.lines;
      if (records >= batchRows) {
        // A run stops at a batch boundary (what it parsed since is read again by the next run),
        // and only after one of its batches committed, so every run moves the import on.
        if (options.crashAfterBatches !== undefined && sent >= options.crashAfterBatches) {
          stopped = true;
          break;
        }
        if (pipeline.applied > 0 && performance.now() - started > importSettings.budgetMs()) {
          stopped = true;
          break;
        }
        await pipeline.add(batch(false));
      }
    }
  } catch (error) {
    // What skip_records_with_error cannot skip (a quote left open until the end of the file) ends
    // the import: the batches before it stay, the reason names the line.
    const csvError = error as Error & { code?: string; lines?: number };
    if (typeof csvError.code === 'string' && csvError.code.startsWith('CSV_')) {
      await pipeline.drain();
      await pump;
      throw new CsvFileError(
        `The file is not valid CSV at line ${baseLine + (csvError.lines ?? 0)}: ${csvError.message}`,
      );
    }
    parser.destroy();
    await pipeline.settle();
    await pump;
    throw error;
  }
  if (stopped) {
    parser.destroy();
    await pump;
    await pipeline.drain();
    report();
    if (options.crashAfterBatches !== undefined) return 'lost';
    await rpc('release_import', { p_import_id: imp.id, p_token: token });
    return 'more';
  }
  await pump;
  await pipeline.drain();
  if (options.crashAfterBatches !== undefined && sent >= options.crashAfterBatches) {
    report();
    return 'lost';
  }
  // The last batch ends the import, so it goes only once every earlier one has committed.
  await pipeline.add(batch(true));
  await pipeline.drain();
  report();
  return 'done';
}

function roundAll(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Math.round(v)]));
}
