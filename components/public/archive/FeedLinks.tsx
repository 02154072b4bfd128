// `<link rel="alternate">` to the archive's RSS and Atom feeds, for feed readers and browsers.
import Head from 'next/head';
import { FEED_PATHS } from '../../../lib/archive-links';

export default function FeedLinks({ siteName }: { siteName: string }) {
  const name = siteName ? `${siteName} ` : '';
  return (
    <Head>
      <link
        key="feed-rss"
        rel="alternate"
        type="application/rss+xml"
        title={`${name}RSS feed`}
        href={FEED_PATHS.rss}
      />
      <link
        key="feed-atom"
        rel="alternate"
        type="application/atom+xml"
        title={`${name}Atom feed`}
        href={FEED_PATHS.atom}
      />
    </Head>
  );
}
