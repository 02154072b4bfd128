// The HTML document around every exported page: language, favicon, colour scheme and an early
// connection to the API.
import { Head, Html, Main, NextScript } from 'next/document';
import { SUPABASE_URL } from '../lib/config';

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <meta charSet="utf-8" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <meta name="color-scheme" content="light dark" />
        {/* Every page reads the API (another origin) soon after it loads: connect to it while the
            scripts download. `crossorigin`: the reads are CORS requests without credentials. */}
        <link rel="preconnect" href={SUPABASE_URL} crossOrigin="anonymous" />
      </Head>
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
