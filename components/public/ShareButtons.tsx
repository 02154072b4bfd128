// Share buttons for the confirmation and waitlist pages: copy the link, or open email, X,
// LinkedIn or WhatsApp with a prefilled message. Plain links (ShareButtons.links.ts), so no
// third-party script loads; every control is a native link or button, reachable by keyboard.
import { Check, Copy, Mail, MessageCircle, Share2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { usePublicSettings } from '../../lib/use-public-settings';
import styles from './ShareButtons.module.css';
import publicStyles from './Public.module.css';
import {
  newsletterMessage,
  shareTargets,
  waitlistMessage,
  type ShareMessage,
  type ShareTarget,
} from './ShareButtons.links';

const ICONS: Record<ShareTarget['id'], typeof Mail> = {
  email: Mail,
  x: Share2,
  linkedin: Share2,
  whatsapp: MessageCircle,
};

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // no clipboard permission: the status line shows the link to copy by hand
  }
}

export default function ShareButtons({
  message,
  title = 'Tell a friend',
  withCopy = true,
}: {
  message: ShareMessage;
  title?: string;
  /** False where the link already sits in a copy field (the waitlist's referral link). */
  withCopy?: boolean;
}) {
  const headingId = useId();
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (copied === 'idle') return;
    const timer = setTimeout(() => setCopied('idle'), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <section className={styles.share} aria-labelledby={headingId} data-testid="share-buttons">
      <h2 id={headingId} className={publicStyles.sectionTitle}>
        {title}
      </h2>
      <ul className={styles.buttons}>
        {withCopy && (
          <li>
            <button
              type="button"
              className={publicStyles.secondaryButton}
              onClick={async () => setCopied((await copy(message.url)) ? 'copied' : 'failed')}
            >
              {copied === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied === 'copied' ? 'Copied' : 'Copy link'}
            </button>
          </li>
        )}
        {shareTargets(message).map((target) => {
          const Icon = ICONS[target.id];
          const external = target.id !== 'email';
          return (
            <li key={target.id}>
              <a
                className={publicStyles.secondaryButton}
                href={target.href}
                // The service opens in a new tab; this page (a place in line) stays open.
                target={external ? '_blank' : undefined}
                rel={external ? 'noopener noreferrer' : undefined}
                aria-label={
                  external ? `Share on ${target.label} (opens a new tab)` : 'Share by email'
                }
              >
                <Icon aria-hidden="true" />
                {target.label}
              </a>
            </li>
          );
        })}
      </ul>
      <p className={styles.status} role="status">
        {copied === 'copied'
          ? 'Link copied to the clipboard.'
          : copied === 'failed'
            ? `Could not copy. The link is ${message.url}`
            : ''}
      </p>
    </section>
  );
}

/** After confirming a newsletter: a card sharing the site's home page. */
export function ShareNewsletter() {
  const { site } = usePublicSettings();
  // Rendered only once the confirmation answered, in the browser: the address is known.
  const home = `${window.location.origin}/`;
  return (
    <div className={publicStyles.card}>
      <ShareButtons message={newsletterMessage(site.name, home)} />
    </div>
  );
}

/** On a waitlist place: the referral link (its copy field is beside it already). */
export function ShareWaitlist({ listName, url }: { listName: string; url: string }) {
  return <ShareButtons message={waitlistMessage(listName, url)} withCopy={false} />;
}
