// The preferences form: name and one switch per list; Save sends only what changed. Errors appear
// next to the field (name) or the lists they concern, and nothing typed is lost.
import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { FunctionFailure, FunctionOutcome } from '../../lib/functions';
import {
  draftFrom,
  nameProblem,
  preferencesChanges,
  type Preferences,
  type PreferencesChanges,
} from '../../lib/preferences';
import form from '../SignupForm.module.css';
import {
  rebaseDraft,
  saveConcern,
  unsubscribeAllConcern,
  type DraftConcern,
} from './preferences-draft';
import styles from './Public.module.css';
import prefs from './Preferences.module.css';

export default function PreferencesForm({
  preferences,
  save,
  unsubscribeAll,
}: {
  preferences: Preferences;
  save: (changes: PreferencesChanges) => Promise<FunctionOutcome<Preferences>>;
  unsubscribeAll: () => Promise<FunctionOutcome<Preferences>>;
}) {
  const [draft, setDraft] = useState(() => draftFrom(preferences));
  const [busy, setBusy] = useState<'save' | 'all' | null>(null);
  const [failure, setFailure] = useState<FunctionFailure | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const changes = preferencesChanges(preferences, draft);
  const localNameProblem = nameProblem(draft.name);
  const anySubscribed = preferences.lists.some((list) => list.subscribed);

  async function run(
    kind: 'save' | 'all',
    call: () => Promise<FunctionOutcome<Preferences>>,
    concern: DraftConcern,
  ) {
    const before = preferences;
    setBusy(kind);
    setFailure(null);
    setSaved(null);
    const outcome = await call();
    setBusy(null);
    if (!outcome.ok) {
      setFailure(outcome);
      return;
    }
    // What the action concerned now shows what the server holds (it may have trimmed the name);
    // edits it did not concern (a name typed before "Unsubscribe from all") stay as typed.
    setDraft((current) => rebaseDraft(current, before, outcome.data, concern));
    setSaved(
      kind === 'save' ? 'Your preferences are saved.' : 'You are unsubscribed from every list.',
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !changes || localNameProblem) return;
    void run('save', () => save(changes), saveConcern(changes));
  }

  const nameError = localNameProblem ?? (failure?.field === 'name' ? failure.message : null);
  const listsError =
    failure &&
    (failure.field === 'lists' || failure.code === 'list_not_found' || failure.code === 'conflict')
      ? failure.message
      : null;
  const formError = failure && !nameError && !listsError ? failure.message : null;

  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate aria-labelledby="prefs-heading">
      <div>
        <h2 id="prefs-heading" className={styles.sectionTitle}>
          Your subscription
        </h2>
        <p className={styles.sectionText}>
          Emails go to <strong>{preferences.email}</strong>.
        </p>
      </div>

      <div className={form.field}>
        <label htmlFor="prefs-name" className={form.label}>
          Name <span className={form.optional}>(optional)</span>
        </label>
        <input
          id="prefs-name"
          className={`${form.input} ${form.plain}`}
          type="text"
          autoComplete="name"
          value={draft.name}
          readOnly={busy !== null}
          onChange={(e) => {
            setDraft({ ...draft, name: e.target.value });
            setSaved(null);
            if (failure?.field === 'name') setFailure(null);
          }}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'prefs-name-error' : undefined}
        />
        {nameError && (
          <p id="prefs-name-error" className={styles.fieldError} role="alert">
            <CircleAlert aria-hidden="true" />
            {nameError}
          </p>
        )}
      </div>

      <fieldset
        className={prefs.lists}
        aria-describedby={listsError ? 'prefs-lists-error' : undefined}
      >
        <legend className={form.label}>Lists</legend>
        {preferences.lists.length === 0 && (
          <p className={styles.muted}>There are no lists to choose from right now.</p>
        )}
        {preferences.lists.map((list) => {
          const id = `prefs-list-${list.slug}`;
          const on = draft.lists[list.slug] ?? false;
          return (
            <div key={list.slug} className={prefs.row}>
              <label htmlFor={id} className={prefs.rowText}>
                <span className={prefs.rowName}>{list.name}</span>
                {list.description && (
                  <span className={prefs.rowDescription}>{list.description}</span>
                )}
              </label>
              <input
                id={id}
                type="checkbox"
                role="switch"
                className={prefs.switch}
                checked={on}
                disabled={busy !== null}
                onChange={(e) => {
                  setDraft({ ...draft, lists: { ...draft.lists, [list.slug]: e.target.checked } });
                  setSaved(null);
                  if (listsError) setFailure(null);
                }}
              />
            </div>
          );
        })}
        {listsError && (
          <p id="prefs-lists-error" className={styles.fieldError} role="alert">
            <CircleAlert aria-hidden="true" />
            {listsError}
          </p>
        )}
      </fieldset>

      {formError && (
        <div className={form.alert} role="alert">
          <CircleAlert className={form.alertIcon} aria-hidden="true" />
          <p>{formError}</p>
        </div>
      )}

      <div className={prefs.footer}>
        <p className={styles.notice} role="status">
          {saved && (
            <>
              <CircleCheck aria-hidden="true" />
              {saved}
            </>
          )}
        </p>
        <div className={prefs.buttons}>
          <button
            type="button"
            className={styles.secondaryButton}
            disabled={busy !== null || !anySubscribed}
            aria-busy={busy === 'all'}
            onClick={() => void run('all', unsubscribeAll, unsubscribeAllConcern(preferences))}
          >
            {busy === 'all' && <LoaderCircle className={styles.spinner} aria-hidden="true" />}
            Unsubscribe from all
          </button>
          <button
            type="submit"
            className={styles.button}
            disabled={busy !== null || !changes || Boolean(localNameProblem)}
            aria-busy={busy === 'save'}
          >
            {busy === 'save' && <LoaderCircle className={styles.spinner} aria-hidden="true" />}
            Save changes
          </button>
        </div>
      </div>
    </form>
  );
}
