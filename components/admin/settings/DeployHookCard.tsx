// Settings → Deploy hook (owner only): the URL, headers and JSON body Postbox POSTs to when an
// issue is published, changed or withdrawn, or the site's identity or public lists change, so a
// host that builds on a webhook refreshes the pre-rendered pages. Stored in deploy_hooks, which
// only the owner can read; the call is made by the database (pg_net), never by this page.
import { Rocket, Save, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { supabase } from '../../../lib/supabase';
import { queryKey, toQueryError, useQuery } from '../../../lib/use-query';
import {
  Button,
  Card,
  ErrorState,
  LoadingState,
  StatusMessage,
  TextArea,
  TextField,
} from '../../ui';
import { headersText, readDeployHookForm, type DeployHookErrors } from './DeployHookCard.form';
import styles from './Settings.module.css';

const HOOK_KEY = queryKey('deploy-hook');
const LAST_KEY = queryKey('deploy-hook/last');
const REASONS: Record<string, string> = {
  issue: 'an issue changed',
  identity: 'the site changed',
  lists: 'the public lists changed',
  test: 'a test',
};

interface LastCall {
  called_at: string;
  reason: string;
  status_code: number | null;
  error: string;
  answered: boolean;
}

interface HookRow {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export function DeployHookCard() {
  const hook = useQuery<HookRow>(HOOK_KEY, () =>
    supabase.from('deploy_hooks').select('url, headers, body').maybeSingle<HookRow>(),
  );
  let content;
  if (hook.error && hook.data === undefined) {
    content = (
      <ErrorState
        title="The deploy hook could not be loaded."
        message={hook.error.message}
        onRetry={() => void hook.mutate()}
      />
    );
  } else if (hook.data === undefined) {
    content = <LoadingState label="Loading the deploy hook…" />;
  } else {
    // Keyed by the saved row, so a save or a removal starts the form again from what is stored.
    content = (
      <HookForm key={JSON.stringify(hook.data)} saved={hook.data} onSaved={() => hook.mutate()} />
    );
  }
  return (
    <Card id="deploy-hook" title="Deploy hook">
      <p>
        Optional. When an issue is published, changed or withdrawn, or the site’s name, tagline,
        logo or public lists change, Postbox sends one POST to this address, so your host rebuilds
        the pages it pre-renders (Netlify or Vercel build hooks, Cloudflare Pages, GitHub’s
        repository dispatch). Only the owner can see it; it may hold a token.
      </p>
      {content}
    </Card>
  );
}

function HookForm({ saved, onSaved }: { saved: HookRow | null; onSaved: () => unknown }) {
  const [url, setUrl] = useState(saved?.url ?? '');
  const [headers, setHeaders] = useState(headersText(saved?.headers));
  const [body, setBody] = useState(saved?.body ? JSON.stringify(saved.body, null, 2) : '');
  const [errors, setErrors] = useState<DeployHookErrors>({});
  const [pending, setPending] = useState<'save' | 'remove' | 'test' | null>(null);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const last = useQuery<LastCall>(saved ? LAST_KEY : null, () =>
    supabase.rpc('deploy_hook_last_call').maybeSingle<LastCall>(),
  );

  const run = async (
    kind: 'save' | 'remove' | 'test',
    action: () => PromiseLike<{ error: unknown }>,
    done: string,
  ) => {
    setPending(kind);
    setStatus(null);
    try {
      const { error } = await action();
      if (error) throw toQueryError(error);
      setStatus({ tone: 'success', text: done });
      await onSaved();
      void last.mutate();
    } catch (error) {
      setStatus({ tone: 'error', text: (error as Error).message });
    } finally {
      setPending(null);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const read = readDeployHookForm({ url, headers, body });
    setErrors(read.errors ?? {});
    if (!read.values) return;
    const row = { id: true, ...read.values, body: read.values.body as never };
    void run(
      'save',
      () => supabase.from('deploy_hooks').upsert(row),
      'Saved. The next change calls it.',
    );
  };

  let lastText = 'Not called yet.';
  if (last.data) {
    const when = new Date(last.data.called_at).toLocaleString();
    const why = REASONS[last.data.reason] ?? last.data.reason;
    const answer = !last.data.answered
      ? 'waiting for the answer'
      : last.data.error
        ? `failed: ${last.data.error}`
        : `answered ${last.data.status_code}`;
    lastText = `Last call ${when} (${why}): ${answer}.`;
  }

  return (
    <form onSubmit={save} noValidate aria-label="Deploy hook" className={styles.form}>
      <TextField
        label="URL"
        type="url"
        inputMode="url"
        placeholder="https://api.netlify.com/build_hooks/…"
        value={url}
        error={errors.url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <TextArea
        label="Headers"
        optional
        hint="One a line, as Name: value. GitHub needs Authorization: Bearer <token> and Accept: application/vnd.github+json."
        rows={3}
        value={headers}
        error={errors.headers}
        onChange={(e) => setHeaders(e.target.value)}
      />
      <TextArea
        label="JSON body"
        optional
        hint='Sent as the request body; {} when empty. GitHub: {"event_type": "postbox"}.'
        rows={3}
        value={body}
        error={errors.body}
        onChange={(e) => setBody(e.target.value)}
      />
      {saved ? (
        <p className={styles.hint} role="status">
          {lastText}
        </p>
      ) : null}
      <div className={styles.saveBar}>
        <Button type="submit" variant="primary" icon={<Save />} loading={pending === 'save'}>
          Save deploy hook
        </Button>
        {saved ? (
          <>
            <Button
              type="button"
              icon={<Rocket />}
              loading={pending === 'test'}
              onClick={() =>
                void run('test', () => supabase.rpc('test_deploy_hook'), 'Test call sent.')
              }
            >
              Send a test call
            </Button>
            <Button
              type="button"
              variant="danger"
              icon={<Trash2 />}
              loading={pending === 'remove'}
              onClick={() =>
                void run(
                  'remove',
                  () => supabase.from('deploy_hooks').delete().eq('id', true),
                  'Removed. Postbox calls nothing now.',
                )
              }
            >
              Remove
            </Button>
          </>
        ) : null}
      </div>
      {status ? <StatusMessage tone={status.tone}>{status.text}</StatusMessage> : null}
    </form>
  );
}
