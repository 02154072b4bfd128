// The embed page's script (components/embed/entry.ts and what it imports: the subscribe rules,
// PostgREST reads, the height report), bundled and minified at build time for pages/embed/index.tsx
// to inline, so `/embed/` runs without React or Next's runtime. The public configuration is
// inlined as Next inlines it into the other pages (NEXT_PUBLIC_*), and nothing else from the
// build's environment is.
import { join } from 'node:path';

let bundled: Promise<string> | undefined;

export function embedScript(): Promise<string> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const env = (name: string) => JSON.stringify(process.env[name] ?? '');
  const result = await build({
    entryPoints: [join(process.cwd(), 'components/embed/entry.ts')],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    legalComments: 'none',
    define: {
      'process.env.NODE_ENV': '"production"',
      'process.env.NEXT_PUBLIC_SUPABASE_URL': env('NEXT_PUBLIC_SUPABASE_URL'),
      'process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY': env(
        'NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY',
      ),
    },
  });
  const code = result.outputFiles[0]!.text.trim();
  // The browser has no `process`: a module that reads another variable must not slip in.
  if (/\bprocess\.env\b/.test(code)) {
    throw new Error('embed script: it reads process.env beyond the NEXT_PUBLIC_* it is given');
  }
  // Inlined in a <script> element: it must not end it early.
  return code.replace(/<\/(script)/gi, '<\\/$1');
}
