// The embed page's behaviour without React or Next's runtime (`/embed/` ships as static HTML; see
// pages/embed/index.tsx): it reads `?list=&button=&theme=`, shows the form for that list from the
// build's lists and checks them again, subscribes with fetch (the same rules and messages as the
// home page's form: lib/subscribe-request.ts), and posts the page's height to the host. Every piece
// of markup is the React components' own, rendered at build time into hidden templates that this
// script clones, so the embed looks exactly like the form it used to hydrate.
import { parseButtonText, parseTheme } from './options';
import { reportHeight } from './report-height';
import type { PublicList } from '../../lib/public-lists';
import { needsConfirmation } from '../../lib/public-lists';
import { unwrap } from '../../lib/query';
import { readPublicLists, toPublicLists } from '../../lib/read-public-lists';
import { siteIdentity, siteTitle, type PublicSettingsRow } from '../../lib/site';
import { SIGNUP_HINTS } from '../../lib/subscribe-messages';
import type { SubscribeOutcome } from '../../lib/subscribe';
import { sendSubscribe } from '../../lib/subscribe-request';
import { publicRest } from '../../lib/supabase-public';

/** What the page hands the script (a JSON element): the build's data and the theme classes. */
export interface EmbedData {
  /** The public lists as the build read them (rows), or null when it could not. */
  lists: unknown[] | null;
  settings: PublicSettingsRow | null;
  /** CSS module classes of `?theme=light|dark`. */
  themeClass: { light: string; dark: string };
}

/** `data-embed` names of the templates the page renders (pages/embed/index.tsx). */
export type EmbedTemplate =
  | 'form'
  | 'no-list'
  | 'failed'
  | 'unknown'
  | 'success-pending'
  | 'success-confirmed'
  | 'field-error'
  | 'form-alert'
  | 'spinner'
  | 'arrow';

type Failure = Extract<SubscribeOutcome, { ok: false }>;

/** First retry of a failed read after ~5 s, then doubling (as the public pages' hook does). */
const RETRY_MS = 5000;

/**
 * Starts the embed in `root` (its `<main>`), with the templates in `templates` and the page's data;
 * returns what stops it (timers, observers, listeners).
 */
export function startEmbed(
  root: HTMLElement,
  templates: HTMLElement,
  data: EmbedData,
  search: string = location.search,
): () => void {
  const query = new URLSearchParams(search);
  const slug = query.get('list') || null;
  const buttonText = parseButtonText(query.get('button'));
  const theme = parseTheme(query.get('theme'));
  const base = root.className.split(' ')[0] ?? '';
  root.className = theme === 'auto' ? base : `${base} ${data.themeClass[theme]}`;
  root.dataset.theme = theme;

  const stops: Array<() => void> = [reportHeight(root)];
  let siteName = siteIdentity(data.settings).name;
  let lists: PublicList[] | null = data.lists ? toPublicLists(data.lists as never) : null;
  /** The list the form is shown for, once it is. */
  let shown: PublicList | null = null;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const clone = (name: EmbedTemplate): HTMLElement => {
    const node = templates.querySelector<HTMLElement>(`[data-embed="${name}"]`);
    if (!node) throw new Error(`embed template ${name} is missing`);
    const copy = node.cloneNode(true) as HTMLElement;
    copy.removeAttribute('data-embed');
    return copy;
  };
  /** Children of a template (the template element itself is only a wrapper). */
  const show = (name: EmbedTemplate, fill?: (part: HTMLElement) => void): HTMLElement => {
    const part = clone(name);
    fill?.(part);
    root.replaceChildren(...part.childNodes);
    return root;
  };
  const setTitle = (name: string) => {
    document.title = siteTitle(name, siteName);
  };

  function render(error?: string) {
    if (!slug) {
      shown = null;
      setTitle('Sign up');
      show('no-list');
      return;
    }
    if (error !== undefined) {
      shown = null;
      setTitle('Sign up');
      show('failed', (part) => {
        part.querySelector('[data-slot="message"]')!.textContent = error;
        part.querySelector('button')!.addEventListener('click', () => void load());
      });
      return;
    }
    if (!lists) return; // still loading: the exported HTML's loading state stays
    const list = lists.find((l) => l.slug === slug);
    if (!list) {
      shown = null;
      setTitle('Sign up');
      show('unknown', (part) => {
        part.querySelector('[data-slot="slug"]')!.textContent = slug;
      });
      return;
    }
    setTitle(list.name);
    if (shown?.slug === list.slug && root.querySelector('form')) {
      // The same list read again: update its words, never the form the visitor is filling in.
      fillList(root, list);
      shown = list;
      return;
    }
    shown = list;
    show('form', (part) => fillList(part, list));
    wireForm(root.querySelector('form')!, list.slug);
  }

  function fillList(part: HTMLElement, list: PublicList) {
    const title = part.querySelector('[data-slot="name"]')!;
    title.textContent = list.name;
    // No description, no paragraph: the form then sits closer to the title (Embed.module.css).
    let description = part.querySelector('[data-slot="description"]');
    if (list.description) {
      if (!description) {
        description = clone('form').querySelector('[data-slot="description"]')!;
        title.after(description);
      }
      description.textContent = list.description;
    } else {
      description?.remove();
    }
    const hint = part.querySelector('form > p:last-child');
    if (hint) {
      hint.textContent = needsConfirmation([list], [list.slug])
        ? SIGNUP_HINTS.confirm
        : SIGNUP_HINTS.single;
    }
  }

  function wireForm(form: HTMLFormElement, listSlug: string) {
    const email = form.querySelector<HTMLInputElement>('input[name="email"]')!;
    const name = form.querySelector<HTMLInputElement>('input[name="name"]')!;
    const website = form.querySelector<HTMLInputElement>('input[name="website"]')!;
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    button.querySelector('span')!.textContent = buttonText;
    let pending = false;
    let failure: Failure | null = null;

    const setPending = (on: boolean) => {
      pending = on;
      email.readOnly = on;
      name.readOnly = on;
      button.disabled = on;
      button.setAttribute('aria-busy', String(on));
      button.querySelector('svg')!.replaceWith(clone(on ? 'spinner' : 'arrow').firstElementChild!);
    };
    const clearFailure = () => {
      failure = null;
      for (const input of [email, name]) {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
      form.querySelectorAll('[role="alert"]').forEach((node) => node.remove());
    };
    const showFailure = (outcome: Failure) => {
      failure = outcome;
      // The embed has no list checkboxes: a `lists` error (and one for no field) is on the form.
      const input = outcome.field === 'email' ? email : outcome.field === 'name' ? name : null;
      if (input) {
        const message = clone('field-error').firstElementChild as HTMLElement;
        message.id = `${input.id}-error`;
        message.append(outcome.message);
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', message.id);
        // Last in the field, as SignupForm places it: after the email's icon wrapper, or the name.
        (input === email ? email.parentElement! : name).parentElement!.append(message);
        input.focus();
      } else {
        const alert = clone('form-alert').firstElementChild as HTMLElement;
        alert.querySelector('p')!.textContent = outcome.message;
        button.before(alert);
      }
    };

    email.addEventListener('input', () => {
      if (failure?.field === 'email') clearFailure();
    });
    name.addEventListener('input', () => {
      if (failure?.field === 'name') clearFailure();
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (pending) return;
      clearFailure();
      pending = true;
      void sendSubscribe(
        { email: email.value, name: name.value, lists: [listSlug], website: website.value },
        () => setPending(true),
      ).then((outcome) => {
        if (button.disabled) setPending(false);
        pending = false;
        if (stopped) return;
        if (!outcome.ok) {
          showFailure(outcome);
          return;
        }
        // In the form's place, under the list's name, as SignupForm shows it.
        const success = clone(
          outcome.status === 'pending' ? 'success-pending' : 'success-confirmed',
        ).firstElementChild as HTMLElement;
        success.querySelector('strong')!.textContent = email.value.trim().toLowerCase();
        form.replaceWith(success);
        success.querySelector('h3')!.focus();
      });
    });
  }

  async function load() {
    clearTimeout(retryTimer);
    if (!slug) return;
    const [listsRead, settingsRead] = await Promise.all([
      readPublicLists()
        .then(unwrap)
        .then(
          (rows) => ({ ok: true as const, rows: rows ?? [] }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      publicRest.rpcOne('public_settings').catch(() => null),
    ]);
    if (stopped) return;
    if (settingsRead && !settingsRead.error && settingsRead.data) {
      siteName = siteIdentity(settingsRead.data).name;
    }
    if (!listsRead.ok) {
      // Shown at once with Try again, and tried again by itself with back-off meanwhile.
      const delay = (Math.random() + 0.5) * (1 << Math.min(retries++, 8)) * RETRY_MS;
      retryTimer = setTimeout(() => void load(), delay);
      render((listsRead.error as Error).message);
      return;
    }
    retries = 0;
    lists = toPublicLists(listsRead.rows);
    render();
  }

  render();
  void load();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    for (const stop of stops) stop();
  };
}
