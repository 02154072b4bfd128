// `/preferences/?token=`: name and per-list switches, unsubscribe from all, download my data,
// delete my data (with a confirmation step and a final state), all by the signed footer link.
import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import SiteLayout from '../../components/SiteLayout';
import DataActions from '../../components/public/DataActions';
import PreferencesForm from '../../components/public/PreferencesForm';
import StatusPanel from '../../components/public/StatusPanel';
import styles from '../../components/public/Public.module.css';
import { usePreferences } from '../../lib/use-preferences';
import { useSearchParam } from '../../lib/use-search-params';
import RetryButton from '../../components/public/RetryButton';
import TestEmailNotice from '../../components/public/TestEmailNotice';
import { identityStaticProps } from '../../lib/build/public-props';

export default function PreferencesPage() {
  const token = useSearchParam('token');
  // After a deletion the token points at nobody: stop asking and show the final state.
  const [deleted, setDeleted] = useState(false);
  const test = useSearchParam('test').value === '1';
  const { data, error, save, unsubscribeAll, exportData, deleteData } = usePreferences(
    deleted || test ? null : token.value,
  );

  let content;
  if (test && token.value) {
    content = <TestEmailNotice page="preferences" token={token.value} />;
  } else if (deleted) {
    content = (
      <StatusPanel tone="success" title="Your data is deleted" actions={<HomeLink />}>
        <p>
          We removed your address, name, subscriptions and history. You will not hear from us again
          unless you sign up anew.
        </p>
      </StatusPanel>
    );
  } else if (token.ready && !token.value) {
    content = (
      <StatusPanel tone="error" title="This link is incomplete" actions={<HomeLink />}>
        <p>The preferences link has no token. Open the link from the bottom of any email again.</p>
      </StatusPanel>
    );
  } else if (error?.code === 'token_invalid') {
    content = (
      <StatusPanel tone="error" title="This link is not valid" actions={<HomeLink />}>
        <p>
          Preferences links do not expire, so this one was probably cut short: open the whole link
          from the email. If you deleted your data, there is nothing left to manage.
        </p>
      </StatusPanel>
    );
  } else if (error) {
    content = (
      <StatusPanel
        tone="error"
        title="We could not load your preferences"
        actions={<RetryButton onRetry={() => window.location.reload()} />}
      >
        <p>{error.message}</p>
      </StatusPanel>
    );
  } else if (!data) {
    content = <StatusPanel tone="loading" title="Loading your preferences…" />;
  } else {
    content = (
      <>
        <h1 className={styles.pageTitle}>Your preferences</h1>
        <PreferencesForm preferences={data} save={save} unsubscribeAll={unsubscribeAll} />
        <DataActions
          exportData={exportData}
          deleteData={deleteData}
          onDeleted={() => setDeleted(true)}
        />
      </>
    );
  }

  return <SiteLayout title="Preferences">{content}</SiteLayout>;
}

function HomeLink() {
  return (
    <a href="/" className={styles.button}>
      Go to the home page
      <ArrowRight aria-hidden="true" />
    </a>
  );
}

// The site's identity in the exported HTML (read at build time; see lib/build/public-props.ts).
export const getStaticProps = identityStaticProps;
