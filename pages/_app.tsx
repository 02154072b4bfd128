// App shell: global styles, and the data a page's getStaticProps read at build time
// (lib/build/public-props.ts), so the exported HTML shows it and the public hooks start from it
// (lib/use-public-query.ts). The team's pages bring SWR themselves; public pages never load it.
//
// The page sits in an Activity boundary so that React hydrates it in slices: the exported HTML is
// already on screen, and a boundary met while hydrating is hydrated later at a low priority, in
// 5 ms steps the browser can interrupt (an input on it hydrates it at once and is replayed). Without
// it hydration was one task of ~40 ms on `/` (≈ 160 ms at Lighthouse's 4× CPU slowdown, most of
// the page's Total Blocking Time; issue 22). Not Suspense, which hydrates the same way: the server
// renderer moves a Suspense boundary's content over ~12.8 KB out of place, into a hidden element
// that only a script puts back, so a long issue or the embed would show nothing without JavaScript.
import type { AppProps } from 'next/app';
import { Activity } from 'react';
import { PublicFallbackContext } from '../lib/use-public-query';
import '../styles/globals.css';

const NO_FALLBACK = {};

export default function App({
  Component,
  pageProps,
}: AppProps<{ fallback?: Record<string, unknown> }>) {
  return (
    <PublicFallbackContext.Provider value={pageProps.fallback ?? NO_FALLBACK}>
      <Activity mode="visible">
        <Component {...pageProps} />
      </Activity>
    </PublicFallbackContext.Provider>
  );
}
