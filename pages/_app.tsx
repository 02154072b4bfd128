// App shell: global styles, and the SWR fallback a page's getStaticProps read at build time
// (lib/build/public-props.ts), so the exported HTML shows that data and hooks start from it.
import type { AppProps } from 'next/app';
import { SWRConfig } from 'swr';
import '../styles/globals.css';

export default function App({
  Component,
  pageProps,
}: AppProps<{ fallback?: Record<string, unknown> }>) {
  return (
    <SWRConfig value={{ fallback: pageProps.fallback ?? {} }}>
      <Component {...pageProps} />
    </SWRConfig>
  );
}
