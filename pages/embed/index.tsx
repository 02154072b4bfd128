// `/embed/?list=<slug>&button=<text>&theme=auto|light|dark`: the signup form alone, for an iframe
// on another site: no site header or footer, a transparent page, subscriptions to that one list
// only, and its height posted to the host page (useReportHeight) so the iframe fits it.
import Head from 'next/head';
import { CircleAlert, LoaderCircle } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import SignupForm from '../../components/SignupForm';
import { parseButtonText, parseTheme } from '../../components/embed/options';
import { useReportHeight } from '../../components/embed/useReportHeight';
import styles from '../../styles/Embed.module.css';
import { usePublicLists } from '../../lib/use-public-lists';
import { siteTitle } from '../../lib/site';
import { usePublicSettings } from '../../lib/use-public-settings';
import { useSearchParam } from '../../lib/use-search-params';
import RetryButton from '../../components/public/RetryButton';
import { formStaticProps } from '../../lib/build/public-props';

export default function EmbedPage() {
  const slug = useSearchParam('list');
  const button = useSearchParam('button');
  const theme = parseTheme(useSearchParam('theme').value);
  const main = useRef<HTMLElement>(null);
  useReportHeight(main);
  const { lists, error, retry } = usePublicLists();
  const { site } = usePublicSettings();
  const list = lists?.find((l) => l.slug === slug.value);

  let content;
  if (slug.ready && !slug.value) {
    content = (
      <Message title="No list chosen">
        This signup form needs a list: add <code>?list=&lt;slug&gt;</code> to its address.
      </Message>
    );
  } else if (error) {
    content = (
      <Message title="The signup form could not load" action={<RetryButton onRetry={retry} />}>
        {error.message}
      </Message>
    );
  } else if (!lists || !slug.ready) {
    content = (
      <p className={styles.loading} role="status">
        <LoaderCircle aria-hidden="true" />
        Loading the signup form…
      </p>
    );
  } else if (!list) {
    content = (
      <Message title="This list does not exist">
        There is no public list called “{slug.value}”. Check the embed code on this page.
      </Message>
    );
  } else {
    content = (
      <>
        <h1 className={styles.title}>{list.name}</h1>
        {list.description && <p className={styles.description}>{list.description}</p>}
        <SignupForm
          lists={[list]}
          onlyList={list.slug}
          buttonLabel={parseButtonText(button.value)}
        />
      </>
    );
  }

  return (
    <>
      <Head>
        <title>{siteTitle(list ? list.name : 'Sign up', site.name)}</title>
        {/* The host page shows through: no gradient, no margins of the site frame. A plain style
            element in the exported HTML, so no styling runtime (styled-jsx) is downloaded. */}
        <style>{'html,body{background:transparent!important}'}</style>
      </Head>
      <main
        ref={main}
        className={`${styles.embed} ${theme === 'auto' ? '' : styles[theme]}`}
        data-theme={theme}
      >
        {content}
      </main>
    </>
  );
}

function Message({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.message} role="alert">
      <CircleAlert aria-hidden="true" />
      <div>
        <h1 className={styles.messageTitle}>{title}</h1>
        <p>{children}</p>
        {action && <div className={styles.messageAction}>{action}</div>}
      </div>
    </div>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = formStaticProps;
