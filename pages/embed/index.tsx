// `/embed/?list=<slug>&button=<text>&theme=auto|light|dark`: the signup form alone, for an iframe
// on another site: no site header or footer, a transparent page, subscriptions to that one list
// only, and its height posted to the host page so the iframe fits it.
// The page ships as static HTML without React or Next's runtime (issue 22: ~5 KB of script instead
// of ~120 KB): its markup is rendered here at build time, the loading state in <main> and every
// other state in hidden templates, and one small script (components/embed/client.ts, bundled by
// lib/build/embed-script.ts and inlined) reads the query string, checks the lists again, clones the
// state to show and subscribes with fetch.
import Head from 'next/head';
import { CircleAlert, LoaderCircle } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import SignupForm, {
  Arrow,
  FieldError,
  FormAlert,
  SignupSuccess,
  Spinner,
} from '../../components/SignupForm';
import type { EmbedData, EmbedTemplate } from '../../components/embed/client';
import RetryButton from '../../components/public/RetryButton';
import styles from '../../styles/Embed.module.css';
import { BUILD_KEYS, publicFallback } from '../../lib/build/public-props';
import { siteIdentity, siteTitle, type PublicSettingsRow } from '../../lib/site';

// No React, no Next runtime, no __NEXT_DATA__ in the exported page: only what it renders here.
export const config = { unstable_runtimeJS: false };

interface EmbedProps {
  data: EmbedData;
  /** The bundled script (production builds); `next dev` runs the page's module instead. */
  script: string | null;
}

export default function EmbedPage({ data, script }: EmbedProps) {
  const main = useRef<HTMLElement>(null);
  const templates = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // `next dev` ignores unstable_runtimeJS and hydrates the page: start the same script then.
    if (process.env.NODE_ENV === 'production' || !main.current || !templates.current) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    const [root, parts] = [main.current, templates.current];
    void import('../../components/embed/client').then(({ startEmbed }) => {
      if (!cancelled) stop = startEmbed(root, parts, data);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [data]);

  return (
    <>
      <Head>
        <title>{siteTitle('Sign up', siteIdentity(data.settings).name)}</title>
        {/* The host page shows through: no gradient, no margins of the site frame. */}
        <style>{'html,body{background:transparent!important}'}</style>
      </Head>
      <main id="embed" ref={main} className={styles.embed} data-theme="auto">
        <p className={styles.loading} role="status">
          <LoaderCircle aria-hidden="true" />
          Loading the signup form…
        </p>
        {/* Without JavaScript the query string (which list) cannot be read: say so, instead of a
            spinner that never stops, and offer the site's own signup page in the whole tab. */}
        <noscript>
          <style>{`.${styles.loading}{display:none}`}</style>
          <p className={styles.description}>
            This signup form needs JavaScript.{' '}
            <a href="/" target="_top">
              Subscribe on {siteIdentity(data.settings).name}’s page
            </a>{' '}
            instead.
          </p>
        </noscript>
      </main>
      <div id="embed-templates" ref={templates} hidden>
        <Template name="form">
          <h1 className={styles.title} data-slot="name" />
          <p className={styles.description} data-slot="description" />
          <SignupForm lists={[]} onlyList="-" />
        </Template>
        <Template name="no-list">
          <Message title="No list chosen">
            This signup form needs a list: add <code>?list=&lt;slug&gt;</code> to its address.
          </Message>
        </Template>
        <Template name="failed">
          <Message
            title="The signup form could not load"
            action={<RetryButton onRetry={() => undefined} />}
          >
            <span data-slot="message" />
          </Message>
        </Template>
        <Template name="unknown">
          <Message title="This list does not exist">
            There is no public list called “<span data-slot="slug" />
            ”. Check the embed code on this page.
          </Message>
        </Template>
        <Template name="success-pending">
          <SignupSuccess status="pending" email="" />
        </Template>
        <Template name="success-confirmed">
          <SignupSuccess status="confirmed" email="" />
        </Template>
        <Template name="field-error">
          <FieldError />
        </Template>
        <Template name="form-alert">
          <FormAlert />
        </Template>
        <Template name="spinner">
          <Spinner />
        </Template>
        <Template name="arrow">
          <Arrow />
        </Template>
      </div>
      <script
        id="embed-data"
        type="application/json"
        // `<` escaped: list names and descriptions cannot end the element.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }}
      />
      {script && <script dangerouslySetInnerHTML={{ __html: script }} />}
    </>
  );
}

function Template({ name, children }: { name: EmbedTemplate; children: ReactNode }) {
  return <div data-embed={name}>{children}</div>;
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

// The site's identity and public lists as the build read them (lib/build/public-props.ts), and
// the bundled script.
export async function getStaticProps(): Promise<{ props: EmbedProps }> {
  const fallback = await publicFallback({ lists: true });
  const { embedScript } = await import('../../lib/build/embed-script');
  return {
    props: {
      data: {
        lists: (fallback[BUILD_KEYS.lists] as unknown[] | undefined) ?? null,
        settings: (fallback[BUILD_KEYS.settings] as PublicSettingsRow | null | undefined) ?? null,
        themeClass: { light: styles.light!, dark: styles.dark! },
      },
      script: process.env.NODE_ENV === 'production' ? await embedScript() : null,
    },
  };
}
