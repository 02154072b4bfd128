// The one campaign renderer (issue 21): compiled once per campaign (Liquid tags protected, Markdown
// → sanitised HTML, the layout, Liquid parsed), then per recipient only Liquid runs and the layout
// is filled in. The send, the test send, the web version, the archive and the editor's preview all
// call these two functions, so what the preview shows is what arrives. Import-free but for siblings:
// each runtime passes its own marked, sanitize-html and LiquidJS (see merge-tags.ts).
import { renderCampaignHtmlWith, type CampaignRenderDeps } from '../campaign-render.ts';
import { compileFast, type FastTemplate } from './fast-liquid.ts';
import { styledBodyHtml, type StyleSanitizer } from './body-styles.ts';
import type { Juice } from './inline-css.ts';
import { brandedLayout, type Layout, type LayoutSettings, type Reason } from './layout.ts';
import {
  detailOf,
  parseRestored,
  protectLiquid,
  templateError,
  TemplateError,
  type TokenizerClass,
} from './liquid-source.ts';
import {
  markdownText,
  underlineHeadings,
  UNDERLINE_AFTER_FILL,
  type TextDeps,
} from './markdown-text.ts';
import {
  createLiquid,
  MAX_MESSAGE_BYTES,
  unknownVariables,
  type LiquidClass,
  type LiquidEngine,
  type MergeScope,
} from './merge-tags.ts';

export interface RenderDeps {
  marked: CampaignRenderDeps['marked'];
  sanitizeHtml: CampaignRenderDeps['sanitizeHtml'] & TextDeps['sanitizeHtml'] & StyleSanitizer;
  lex: TextDeps['lex'];
  juice: Juice;
  Liquid: LiquidClass;
  Tokenizer: TokenizerClass;
}

/** The fields of a campaign that hold templates. */
export interface CampaignSource {
  subject: string;
  preheader: string;
  body_md: string;
}

/** A parsed template, and its fast renderer when every tag is a plain variable (fast-liquid.ts). */
interface Template {
  liquid: unknown[];
  fast: FastTemplate | null;
}

export interface CompiledCampaign {
  subject: Template;
  preheader: Template;
  /** The body as the email shows it: styled inline (body-styles.ts). */
  bodyHtml: Template;
  /** The body as the archive keeps it: the sanitised HTML without the email's styles. */
  archiveHtml: Template;
  bodyText: Template;
  /** The subject as written: what `{{ campaign.subject }}` is while the subject itself renders. */
  subjectSource: string;
  layout: Layout;
  /** Variables used that Postbox does not provide (the editor warns; the send renders them empty). */
  unknown: string[];
  /** True when a `waitlist.*` variable is used: the send then reads each reader's standing. */
  usesWaitlist: boolean;
  /** A link or image address starts with a tag: its scheme is checked after each render. */
  checkUrls: boolean;
  /** A heading holds a tag: its plain-text underline is drawn after each render. */
  underlineAfterFill: boolean;
  bodyLineAt(offset: number): number;
  html: LiquidEngine;
  text: LiquidEngine;
}

export interface RenderedCampaign {
  subject: string;
  preheader: string;
  /** The body alone without the email's styles (what the archive keeps), before tracking. */
  readonly bodyHtml: string;
  html: string;
  text: string;
}

function parsePart(
  engine: LiquidEngine,
  part: 'subject' | 'preheader' | 'body',
  source: string,
): unknown[] {
  try {
    return engine.parse(source);
  } catch (error) {
    throw templateError(part, source, error);
  }
}

function render(engine: LiquidEngine, template: Template, scope: object): string {
  return template.fast?.(scope) ?? String(engine.renderSync(template.liquid, scope));
}

/** What differs for an email that is not a campaign (system-emails.ts). */
export interface CompileOptions {
  /** Why the reader gets it (the footer's first line). */
  reason?: Reason;
  /** Variables this kind of email provides besides the campaign's: not "unknown". */
  variables?: Record<string, readonly string[] | null>;
}

/**
 * Compiles a campaign; throws TemplateError naming the part and the line of a syntax error. The
 * body is parsed as written first, so its errors name the lines the author sees.
 */
export function compileCampaign(
  deps: RenderDeps,
  source: CampaignSource,
  settings: LayoutSettings,
  options: CompileOptions = {},
): CompiledCampaign {
  const html = createLiquid(deps.Liquid, 'html');
  const text = createLiquid(deps.Liquid, 'text');
  const subject = parsePart(text, 'subject', source.subject);
  const preheader = parsePart(text, 'preheader', source.preheader);
  const asWritten = parsePart(text, 'body', source.body_md);

  const layout = brandedLayout(deps.juice, settings, options.reason);
  const guarded = protectLiquid(deps.Tokenizer, html.options, source.body_md);
  const sanitized = renderCampaignHtmlWith(deps, guarded.text);
  const restoredHtml = guarded.restore(styledBodyHtml(deps, sanitized, layout.accent), {
    unwrapParagraphs: true,
  });
  const bodyHtml = parseRestored('body', restoredHtml, (t) => html.parse(t));
  const restoredArchive = guarded.restore(sanitized, { unwrapParagraphs: true });
  const archiveHtml = parseRestored('body', restoredArchive, (t) => html.parse(t));
  const textDeps = {
    ...deps,
    isTagUrl: guarded.startsWithTag,
    hasTag: guarded.containsTag,
    sameTag: guarded.sameTag,
  };
  const restoredText = guarded.restore(markdownText(textDeps, guarded.text));
  const bodyText = parseRestored('body', restoredText, (t) => text.parse(t));
  const withFast = (liquid: unknown[], template: string, isHtml: boolean): Template => ({
    liquid,
    fast: compileFast(deps.Tokenizer, html.options, template, isHtml),
  });

  const unknown = new Set<string>();
  const roots = new Set<unknown>();
  for (const template of [subject, preheader, asWritten]) {
    for (const name of unknownVariables(text, template, options.variables)) unknown.add(name);
    for (const segments of text.globalVariableSegmentsSync(template)) roots.add(segments[0]);
  }
  return {
    subject: withFast(subject, source.subject, false),
    preheader: withFast(preheader, source.preheader, false),
    bodyHtml: withFast(bodyHtml, restoredHtml.template, true),
    archiveHtml: withFast(archiveHtml, restoredArchive.template, true),
    bodyText: withFast(bodyText, restoredText.template, false),
    subjectSource: source.subject,
    layout,
    unknown: [...unknown],
    usesWaitlist: roots.has('waitlist'),
    checkUrls: restoredHtml.tagStartsUrl,
    underlineAfterFill: restoredText.template.includes(UNDERLINE_AFTER_FILL),
    bodyLineAt: restoredHtml.lineAt,
    html,
    text,
  };
}

/** A subject or preheader is one line: a value with a line break cannot add a header. */
const oneLine = (value: string) => value.replace(/[\r\n\t\f\v]+/g, ' ').trim();

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ATTRIBUTE_URL = /(\s(href|src)=")([^"]*)(")/gi;

/**
 * Drops a link or image address whose scheme a merge tag decided and the renderer does not allow
 * (the sanitiser saw only the tag): `{{ subscriber.attributes.site }}` = `javascript:…`.
 */
function scrubUrls(html: string): string {
  return html.replace(ATTRIBUTE_URL, (whole, open: string, name: string, value: string, close) => {
    const url = value
      .replace(/&#0*58;|&colon;/gi, ':')
      .replace(/&amp;/g, '&')
      // Browsers ignore controls and spaces in a URL's scheme (`java\tscript:`).
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0020]/g, '');
    const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
    const allowed = name.toLowerCase() === 'src' ? ['http', 'https'] : ['http', 'https', 'mailto'];
    return scheme === undefined || allowed.includes(scheme) ? whole : `${open}${close}`;
  });
}

function byteLength(text: string): number {
  // Each UTF-16 unit is at most 3 bytes of UTF-8: count exactly only when it could matter.
  return text.length * 3 <= MAX_MESSAGE_BYTES ? text.length : new TextEncoder().encode(text).length;
}

/**
 * One recipient's message (or nobody's, with the anonymous scope). `trackBody` rewrites the body's
 * HTML (click tracking, the open pixel) before it goes into the layout. Throws TemplateError when
 * rendering fails (a loop past the limits) or the message is larger than 1 MB.
 */
export function renderCampaign(
  compiled: CompiledCampaign,
  scope: MergeScope,
  options: { trackBody?: (html: string) => string } = {},
): RenderedCampaign {
  const { html, text } = compiled;
  let subject: string;
  let preheader: string;
  let bodyHtml: string;
  let bodyText: string;
  const base = { ...scope, campaign: { subject: compiled.subjectSource } };
  try {
    subject = oneLine(render(text, compiled.subject, base));
  } catch (error) {
    throw templateError('subject', compiled.subjectSource, error);
  }
  const full = { ...scope, campaign: { subject } };
  try {
    preheader = oneLine(render(text, compiled.preheader, full));
    bodyHtml = render(html, compiled.bodyHtml, full);
    bodyText = render(text, compiled.bodyText, full);
    if (compiled.underlineAfterFill) bodyText = underlineHeadings(bodyText);
    // Control tags on lines of their own leave blank lines behind: at most one between blocks.
    bodyText = bodyText.replace(/\n{3,}/g, '\n\n').trim();
  } catch (error) {
    const offset = (error as { token?: { begin?: number } }).token?.begin;
    const line = typeof offset === 'number' ? compiled.bodyLineAt(offset) : 1;
    throw new TemplateError('body', line, detailOf(error));
  }
  if (compiled.checkUrls) bodyHtml = scrubUrls(bodyHtml);
  const links = {
    unsubscribe: scope.unsubscribe_url,
    preferences: scope.preferences_url,
    web: scope.web_url,
  };
  const document = compiled.layout.document({
    title: subject,
    preheader,
    bodyHtml: options.trackBody ? options.trackBody(bodyHtml) : bodyHtml,
    links,
  });
  const plain = compiled.layout.text({ bodyText, links });
  if (byteLength(document) + byteLength(plain) > MAX_MESSAGE_BYTES)
    throw new TemplateError('body', 0, 'the rendered email is larger than 1 MB');
  return {
    subject,
    preheader,
    html: document,
    text: plain,
    // Read once per campaign (the archive), never per recipient: rendered only when asked for.
    get bodyHtml() {
      try {
        const archived = render(html, compiled.archiveHtml, full);
        return compiled.checkUrls ? scrubUrls(archived) : archived;
      } catch (error) {
        throw new TemplateError('body', 1, detailOf(error));
      }
    },
  };
}
