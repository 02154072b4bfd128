// Where each share button leads: plain links to each service's own share page with the message
// filled in (no script of theirs runs on ours), and a mailto: link for email.

export interface ShareMessage {
  /** The address to share (a referral link, or the site's home page). */
  url: string;
  /** The prefilled words; the URL follows them. */
  text: string;
  /** An email's subject. */
  subject: string;
}

export interface ShareTarget {
  id: 'email' | 'x' | 'linkedin' | 'whatsapp';
  label: string;
  href: string;
}

/** Email, X, LinkedIn and WhatsApp, in that order. */
export function shareTargets({ url, text, subject }: ShareMessage): ShareTarget[] {
  const q = encodeURIComponent;
  return [
    {
      id: 'email',
      label: 'Email',
      // RFC 6068: spaces as %20 (a `+` would stay a plus in most mail apps).
      href: `mailto:?subject=${q(subject)}&body=${q(`${text}\n\n${url}`)}`,
    },
    { id: 'x', label: 'X', href: `https://x.com/intent/post?text=${q(text)}&url=${q(url)}` },
    {
      id: 'linkedin',
      label: 'LinkedIn',
      // LinkedIn's share page takes only the URL; it reads the page's own title and description.
      href: `https://www.linkedin.com/sharing/share-offsite/?url=${q(url)}`,
    },
    { id: 'whatsapp', label: 'WhatsApp', href: `https://wa.me/?text=${q(`${text} ${url}`)}` },
  ];
}

/** The message for a newsletter the reader just subscribed to. */
export function newsletterMessage(siteName: string, homeUrl: string): ShareMessage {
  const name = siteName.trim() || 'this newsletter';
  return {
    url: homeUrl,
    text: `I just subscribed to ${name}. You might like it too:`,
    subject: `You might like ${name}`,
  };
}

/** The message for a waitlist place: the referral link moves the sharer up the line. */
export function waitlistMessage(listName: string, referralUrl: string): ShareMessage {
  return {
    url: referralUrl,
    text: `I just joined the waitlist for ${listName}. Join through my link:`,
    subject: `Join me on the ${listName} waitlist`,
  };
}
