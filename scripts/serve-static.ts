// Serves the static export (`out/`) as a plain static host would: `dir/` → dir/index.html,
// `dir` → redirect to `dir/` (trailingSlash export), and 404.html with status 404 for misses.
// Text is compressed (Brotli or gzip, as the browser accepts), as every static host does (GitHub
// Pages, Netlify, Cloudflare, S3 behind CloudFront): served raw, the JavaScript a page loads is
// three to four times the bytes a visitor downloads, and Lighthouse (bench/lighthouse.ts) and the
// first-load budgets, which count gzipped bytes, would measure a host nobody deploys to.
// Usage: npx tsx scripts/serve-static.ts [--dir out] [--port 3000] [--host 127.0.0.1]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import compression from 'compression';
import sirv from 'sirv';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'out' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
const root = resolve(values.dir);
if (!existsSync(join(root, 'index.html'))) {
  console.error(
    `serve-static: ${root}/index.html is missing; build the site first (npx next build).`,
  );
  process.exit(1);
}
const notFoundPage = join(root, '404.html');

const files = sirv(root, {
  dev: false, // scan once, like an object store's listing: no directory traversal at request time
  etag: true,
  extensions: [''], // exact files only; directories are mapped to index.html below
  setHeaders(res, pathname) {
    // Next fingerprints everything under /_next/static; pages must be revalidated.
    res.setHeader(
      'Cache-Control',
      pathname.startsWith('/_next/static/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  },
  onNoMatch(req, res) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const asDir = join(root, decodeURIComponent(url.pathname));
    if (
      !url.pathname.endsWith('/') &&
      asDir.startsWith(root) &&
      existsSync(join(asDir, 'index.html')) &&
      statSync(asDir).isDirectory()
    ) {
      res.writeHead(308, { Location: `${url.pathname}/${url.search}` });
      res.end();
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(existsSync(notFoundPage) ? readFileSync(notFoundPage) : 'Not found');
  },
});

// Typed for Express, the middleware reads and writes only Node's request and response.
const compress = compression() as unknown as (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void;

const server = createServer((req, res) => {
  // `dir/` → `dir/index.html` (S3 website hosting's index document); never `dir.html` for `dir`.
  const [path = '/', query] = (req.url ?? '/').split('?', 2);
  if (path.endsWith('/')) req.url = `${path}index.html${query === undefined ? '' : `?${query}`}`;
  compress(req, res, () => files(req, res));
});
server.listen(Number(values.port), values.host, () => {
  console.log(`serve-static: ${root} on http://${values.host}:${values.port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
