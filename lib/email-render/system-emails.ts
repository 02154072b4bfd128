// The subscriber emails Postbox sends on its own (issue 21): the double opt-in confirmation and the
// already-subscribed notice. Each is a template like a campaign's — subject, preheader, Markdown
// body with merge tags — rendered by the same renderer and branded layout. The team may replace the
// wording (public.email_templates, Settings → Emails); these are the defaults, the variables each
// kind provides, and the sample values the preview and a test send use. The welcome was one of them
// until issue 24 made it an automation per public list: its wording here (and the team's, kept in
// email_templates) is what the seeded "Welcome to <list>" automation started from
// (welcomeAutomationTemplate). Import-free (see merge-tags.ts).
import {
  compileCampaign,
  renderCampaign,
  type CampaignSource,
  type CompiledCampaign,
  type RenderDeps,
  type RenderedCampaign,
} from './campaign.ts';
import type { LayoutSettings, Reason } from './layout.ts';
import {
  recipientScope,
  type MergeTag,
  type ScopeLinks,
  type ScopeSubscriber,
  type ScopeWaitlist,
} from './merge-tags.ts';

export type SystemEmailKind = 'confirmation' | 'welcome' | 'already_subscribed';
/** The kinds Settings → Emails edits and test-sends (the welcome is an automation now). */
export const SYSTEM_EMAIL_KINDS: readonly SystemEmailKind[] = [
  'confirmation',
  'already_subscribed',
];

export const SYSTEM_EMAIL_LABELS: Record<SystemEmailKind, { title: string; about: string }> = {
  confirmation: {
    title: 'Confirmation (double opt-in)',
    about: 'Sent when someone signs up to a list that asks for confirmation.',
  },
  welcome: {
    title: 'Welcome',
    about:
      'Now an automation per public list ("Welcome to <list>", under Automations), sent once a sign-up is confirmed.',
  },
  already_subscribed: {
    title: 'Already subscribed',
    about: 'Sent when a confirmed address signs up again, with its preferences link.',
  },
};

/** A template as stored: subject, preheader, body. */
export type SystemTemplate = CampaignSource;

export const DEFAULT_TEMPLATES: Record<SystemEmailKind, SystemTemplate> = {
  confirmation: {
    subject: 'Confirm your subscription to {{ site.name }}',
    preheader: 'One click to confirm {{ lists }}.',
    body_md: `# Confirm your subscription

Please confirm that you want to receive {{ lists }} from {{ site.name }}.

[Confirm subscription]({{ confirm_url }})

The link works for 7 days. If you did not ask for this, ignore this email: you will not be subscribed and will not hear from us again.
`,
  },
  welcome: {
    subject: 'Welcome to {{ site.name }}',
    preheader: 'You are now subscribed to {{ lists }}.',
    body_md: `# Welcome to {{ site.name }}

You are now subscribed to {{ lists }} from {{ site.name }}. Thank you!

{% if waitlist.position %}

You are number {{ waitlist.position }} on the {{ waitlist.list }}. Every friend who signs up through your link and confirms moves you up. Your link to share: [{{ waitlist.referral_url }}]({{ waitlist.referral_url }})

Your place changes as people join and refer friends.

[See your place live]({{ waitlist.place_url }})

{% endif %}
`,
  },
  already_subscribed: {
    subject: 'You are already subscribed to {{ site.name }}',
    preheader:
      '{% if apply_url %}Apply the changes you asked for, or manage your preferences.{% else %}Manage your preferences any time.{% endif %}',
    body_md: `# You are already subscribed

This address is already subscribed to {{ lists }} from {{ site.name }}, and someone, probably you, just signed up with it again.

{% if apply_url %}

The form also asked to {{ changes | join: ", and to " }}.

[Apply these changes]({{ apply_url }})

This link works for 7 days and applies exactly what the form asked. If it was not you, ignore this email: nothing changes.

{% endif %}

To choose your lists or change your name, open your preferences:

[Manage your preferences]({{ preferences_url }})
`,
  },
};

const WAITLIST_FIELDS = ['position', 'total', 'referrals', 'referral_url', 'list', 'place_url'];

/** The variables each kind provides besides a campaign's (site, subscriber, links). */
export const SYSTEM_VARIABLES: Record<SystemEmailKind, Record<string, readonly string[] | null>> = {
  confirmation: { confirm_url: null, lists: null },
  welcome: { lists: null, waitlist: WAITLIST_FIELDS },
  already_subscribed: { lists: null, changes: null, apply_url: null },
};

/** What the Insert merge tag menu offers for each kind. */
export const SYSTEM_MERGE_TAGS: Record<SystemEmailKind, MergeTag[]> = {
  confirmation: [
    { tag: 'confirm_url', label: 'Confirm link' },
    { tag: 'lists', label: 'The lists, named' },
    { tag: 'site.name', label: 'Site name' },
    { tag: 'subscriber.email', label: 'Email address' },
    { tag: 'preferences_url', label: 'Preferences link' },
  ],
  welcome: [
    { tag: 'lists', label: 'The lists, named' },
    { tag: 'site.name', label: 'Site name' },
    { tag: 'subscriber.email', label: 'Email address' },
    { tag: 'waitlist.position', label: 'Waitlist position' },
    { tag: 'waitlist.referral_url', label: 'Waitlist referral link' },
    { tag: 'waitlist.place_url', label: 'Live place page' },
    { tag: 'preferences_url', label: 'Preferences link' },
  ],
  already_subscribed: [
    { tag: 'lists', label: 'The lists, named' },
    { tag: 'apply_url', label: 'Apply-changes link (empty when none)' },
    { tag: 'changes | join: ", and to "', label: 'The changes asked for' },
    { tag: 'site.name', label: 'Site name' },
    { tag: 'preferences_url', label: 'Preferences link' },
  ],
};

const SIGNUP_REASON: Reason = (site) =>
  `You are receiving this because this address was entered in a signup form of ${site}.`;

const REASONS: Record<SystemEmailKind, Reason | undefined> = {
  confirmation: SIGNUP_REASON,
  welcome: undefined,
  already_subscribed: SIGNUP_REASON,
};

/** A waitlist standing as the welcome shows it. */
export type WelcomeWaitlist = ScopeWaitlist & { place_url: string };

/** The values of one kind's own variables. */
export interface SystemValues {
  lists: string;
  confirm_url?: string;
  /** Absent when there is nothing to apply (an empty string would be true in Liquid). */
  apply_url?: string;
  changes?: string[];
  waitlist?: WelcomeWaitlist;
}

/**
 * The welcome's wording as the seeded welcome automation's email step has it: `{{ lists }}` (the
 * lists just confirmed) and `{{ waitlist.list }}` become the trigger list, `{{ list.name }}`. The
 * migration 20261203100000_welcome_automations.sql converts the same way (tests compare).
 */
export function welcomeAutomationTemplate(template: SystemTemplate): SystemTemplate {
  const convert = (text: string) =>
    text.replace(/\{\{(-?)\s*(lists|waitlist\.list)\s*(-?)\}\}/g, '{{$1 list.name $3}}');
  return {
    subject: convert(template.subject).slice(0, 200),
    preheader: convert(template.preheader).slice(0, 200),
    body_md: convert(template.body_md),
  };
}

/** "A", "A and B", "A, B and C". */
export function joinedNames(names: string[]): string {
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Compiles one kind's template; throws TemplateError like a campaign. */
export function compileSystemEmail(
  deps: RenderDeps,
  kind: SystemEmailKind,
  template: SystemTemplate,
  settings: LayoutSettings,
): CompiledCampaign {
  return compileCampaign(deps, template, settings, {
    reason: REASONS[kind],
    variables: SYSTEM_VARIABLES[kind],
  });
}

/** One reader's message. */
export function renderSystemEmail(
  compiled: CompiledCampaign,
  parts: {
    subscriber: ScopeSubscriber;
    site: { name: string; url: string };
    links: ScopeLinks;
    values: SystemValues;
  },
): RenderedCampaign {
  const { waitlist, ...values } = parts.values;
  const scope = recipientScope({
    subscriber: parts.subscriber,
    site: parts.site,
    subject: compiled.subjectSource,
    links: parts.links,
    waitlist,
  });
  return renderCampaign(compiled, { ...scope, ...values });
}

/** The sample values the preview and a test send show for a kind. */
export function sampleValues(kind: SystemEmailKind, siteUrl: string): SystemValues {
  const lists = 'Weekly News and Product Updates';
  switch (kind) {
    case 'confirmation':
      return { lists, confirm_url: `${siteUrl}/confirm/?token=test` };
    case 'welcome':
      return {
        lists: 'Launch waitlist',
        waitlist: {
          list: 'Launch waitlist',
          position: 42,
          total: 1000,
          referrals: 3,
          referral_url: `${siteUrl}/?ref=SAMPLE`,
          place_url: `${siteUrl}/waitlist/?code=SAMPLE`,
        },
      };
    case 'already_subscribed':
      return {
        lists,
        apply_url: `${siteUrl}/confirm/?token=test`,
        changes: [
          'subscribe you to Product Updates',
          'change your name to the one entered in the form',
        ],
      };
  }
}
