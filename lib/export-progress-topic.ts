// The Realtime topic on which export-subscribers reports the rows it has written, shared by the
// function (supabase/functions/_shared/export-progress.ts) and the page that listens. No imports,
// so Deno loads it as is.

/** The public topic for the export the page named with the random UUID `progress`. */
export const exportProgressTopic = (progress: string) => `export-progress:${progress}`;
