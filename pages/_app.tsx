// App shell: global styles, and the data a page's getStaticProps read at build time
// (lib/build/public-props.ts), so the exported HTML shows it and the public hooks start from it
// (lib/use-public-query.ts). The team's pages bring SWR themselves; public pages never load it.
import type { AppProps } from 'next/app';
import { PublicFallbackContext } from '../lib/use-public-query';
import '../styles/globals.css';

const NO_FALLBACK = {};

export default function App({
  Component,
  pageProps,
}: AppProps<{ fallback?: Record<string, unknown> }>) {
  return (
    <PublicFallbackContext.Provider value={pageProps.fallback ?? NO_FALLBACK}>
      <Component {...pageProps} />
    </PublicFallbackContext.Provider>
  );
}
