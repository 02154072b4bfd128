// What the unsubscribe and preferences pages show for a link from a test email (`?test=1`, issue
// 21): the function recognises the test token and changes nothing, and the page says so plainly,
// instead of "This link is not valid" or a real unsubscribe.
import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import StatusPanel from './StatusPanel';
import styles from './Public.module.css';
import { invokeFunction } from '../../lib/invoke';

type Page = 'unsubscribe' | 'preferences';
type State = 'loading' | 'test' | 'invalid' | 'failed';

const WHAT: Record<Page, string> = {
  unsubscribe:
    'In a real email this link unsubscribes the reader from the lists the email went to, and offers Undo.',
  preferences:
    'In a real email this link opens the reader’s preferences: their name, their lists, and downloading or deleting their data.',
};

const parseTest = (data: unknown) =>
  data && typeof data === 'object' && (data as { test?: unknown }).test === true ? true : null;

export default function TestEmailNotice({ page, token }: { page: Page; token: string | null }) {
  const [state, setState] = useState<State>('loading');
  useEffect(() => {
    if (token === null) return;
    let live = true;
    void invokeFunction(page, parseTest, { method: 'GET', query: { token } }).then((outcome) => {
      if (!live) return;
      if (outcome.ok) setState('test');
      else setState(outcome.code === 'token_invalid' ? 'invalid' : 'failed');
    });
    return () => {
      live = false;
    };
  }, [page, token]);

  const home = (
    <a href="/" className={styles.button}>
      Go to the home page
      <ArrowRight aria-hidden="true" />
    </a>
  );
  if (state === 'loading') return <StatusPanel tone="loading" title="Checking the link…" />;
  if (state === 'test')
    return (
      <StatusPanel tone="info" title="This is a test email — nothing was changed" actions={home}>
        <p>This link came from a test email sent from the admin, so no subscriber was affected.</p>
        <p>{WHAT[page]}</p>
      </StatusPanel>
    );
  return (
    <StatusPanel tone="error" title="This link is not valid" actions={home}>
      <p>
        {state === 'invalid'
          ? 'The link was probably cut short: open the whole link from the email.'
          : 'The link could not be checked. Try again in a moment.'}
      </p>
    </StatusPanel>
  );
}
