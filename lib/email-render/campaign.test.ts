// The shared campaign renderer with the site's libraries: every merge tag, defaults, escaping, the
// sandbox's limits, syntax errors naming the line, and Markdown that leaves the tags intact.
import { describe, expect, it } from 'vitest';
import { compileCampaign, renderCampaign, type CampaignSource } from './campaign';
import { TemplateError } from './liquid-source';
import { recipientScope, sampleWaitlist, type ScopeSubscriber } from './merge-tags';
import { siteRenderDeps } from './site';

const settings = { site_name: 'Maker News', postal_address: '1 Main St, Springfield' };
const site = { name: 'Maker News', url: 'https://news.example.com' };
const links = {
  unsubscribe: 'https://news.example.com/unsubscribe/?token=u1&x=1',
  preferences: 'https://news.example.com/preferences/?token=p1',
  web: 'https://news.example.com/web/?token=w1',
};

function render(
  body: string,
  subscriber: ScopeSubscriber | null,
  extra: Partial<CampaignSource> = {},
  withLinks = true,
) {
  const compiled = compileCampaign(
    siteRenderDeps,
    { subject: 'Weekly', preheader: '', body_md: body, ...extra },
    settings,
  );
  return renderCampaign(
    compiled,
    recipientScope({
      subscriber,
      site,
      subject: 'Weekly',
      links: withLinks ? links : null,
      waitlist: sampleWaitlist(site.url),
    }),
  );
}

const ada: ScopeSubscriber = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  attributes: { company: 'Engines & Co', plan: 'pro' },
};

function errorOf(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error('no TemplateError');
}

describe('merge tags', () => {
  it('renders every variable in the HTML and text parts', () => {
    const body = [
      'Hi {{ subscriber.name }} / {{ subscriber.first_name }} ({{ subscriber.email }}) <{{ subscriber.email }}>',
      '',
      'Works at {{ subscriber.attributes.company }} on {{ subscriber.attributes.plan }}.',
      '',
      '{{ site.name }} · {{ campaign.subject }} · {{ unsubscribe_url }} · {{ preferences_url }} · {{ web_url }}',
      '',
      'Place {{ waitlist.position }}, share {{ waitlist.referral_url }}',
    ].join('\n');
    const out = render(body, ada);
    // A tag in angle brackets is an HTML tag to Markdown, so the sanitiser drops it.
    expect(out.text).toContain('Hi Ada Lovelace / Ada (ada@example.com)');
    expect(out.text).toContain('Works at Engines & Co on pro.');
    expect(out.text).toContain(`Maker News · Weekly · ${links.unsubscribe} · ${links.preferences}`);
    expect(out.text).toContain('Place 42, share https://news.example.com/?ref=SAMPLE');
    expect(out.bodyHtml).toContain('Hi Ada Lovelace / Ada (ada@example.com)');
    expect(out.bodyHtml).toContain('Engines &amp; Co');
    expect(out.bodyHtml).toContain(links.unsubscribe.replace('&', '&amp;'));
  });

  it('applies defaults for a reader without a name, and for nobody', () => {
    const body =
      'Hi {{ subscriber.first_name | default: "friend" }}, {{ subscriber.name | default: "there" }}!';
    expect(render(body, { email: 'x@example.com', name: null, attributes: null }).text).toMatch(
      /^Hi friend, there!/,
    );
    expect(render(body, { email: 'x@example.com', name: '  ', attributes: {} }).text).toMatch(
      /^Hi friend, there!/,
    );
    const nobody = render(body + ' {{ subscriber.email }}.', null, {}, false);
    expect(nobody.text).toMatch(/^Hi friend, there! \./);
    expect(nobody.html).not.toContain('Unsubscribe');
  });

  it('escapes values in the HTML part, not in the text part', () => {
    const name = '<img src=x onerror=alert(1)>';
    const out = render(
      'Hello {{ subscriber.name }}',
      { email: 'e@example.com', name, attributes: {} },
      {
        subject: 'For {{ subscriber.name }}',
        preheader: 'Dear {{ subscriber.first_name }}',
      },
    );
    expect(out.bodyHtml).toContain('Hello &lt;img src=x onerror=alert(1)&gt;');
    expect(out.html).not.toContain('<img src=x');
    expect(out.text).toContain(`Hello ${name}`);
    expect(out.subject).toBe(`For ${name}`);
    expect(out.html).toContain('<title>For &lt;img src=x onerror=alert(1)&gt;</title>');
    expect(out.html).toContain('>Dear &lt;img</div>');
  });

  it('keeps a value from adding a header line to the subject', () => {
    const out = render(
      'x',
      { email: 'e@example.com', name: 'A', attributes: { t: 'a\r\nBcc: b@x' } },
      {
        subject: 'Hi {{ subscriber.attributes.t }}',
      },
    );
    expect(out.subject).toBe('Hi a Bcc: b@x');
  });

  it('leaves tags intact through Markdown: quotes, tables, links, emphasis', () => {
    const body = [
      '| who | greeting |',
      '|---|---|',
      '| you | {{ subscriber.first_name | default: "friend" }} |',
      '',
      '[View online]({{ web_url }}) and <a href="{{ preferences_url }}">prefs</a>',
      '',
      '_{{ subscriber.attributes.plan }}_ **{{ site.name }}**',
    ].join('\n');
    const out = render(body, ada);
    expect(out.bodyHtml).toMatch(/<td>Ada<\/td>/);
    expect(out.bodyHtml).toContain(`<a href="${links.web}" rel="noopener">View online</a>`);
    expect(out.bodyHtml).toContain(`<a href="${links.preferences}" rel="noopener">prefs</a>`);
    expect(out.bodyHtml).toContain('<em>pro</em> <strong>Maker News</strong>');
    expect(out.text).toContain(`View online (${links.web})`);
  });

  it('drops a link whose scheme a value decided, when it is not http(s) or mailto', () => {
    const evil = {
      email: 'e@example.com',
      name: null,
      attributes: { site: 'javascript:alert(1)' },
    };
    const good = { email: 'e@example.com', name: null, attributes: { site: 'https://ok.test/' } };
    const body = '[My site]({{ subscriber.attributes.site }})';
    expect(render(body, evil).bodyHtml).toContain('<a href="" rel="noopener">My site</a>');
    expect(render(body, good).bodyHtml).toContain('<a href="https://ok.test/" rel="noopener">');
  });

  it('puts control tags alone on a line in no paragraph of their own', () => {
    const body = '{% if subscriber.name %}\n\nHello {{ subscriber.name }}\n\n{% endif %}\n\nBye';
    expect(render(body, ada).bodyHtml).toBe('\n<p>Hello Ada Lovelace</p>\n\n<p>Bye</p>');
    expect(render(body, null).bodyHtml).toBe('\n<p>Bye</p>');
  });

  it('does not treat Liquid in script or sanitised-away HTML as a way around the sanitiser', () => {
    const out = render('<script>{{ subscriber.name }}</script>ok <b onclick="{{ x }}">b</b>', ada);
    expect(out.bodyHtml).not.toMatch(/script|onclick|Ada/);
  });
});

describe('syntax errors and limits', () => {
  it('names the line of a syntax error in the body, subject or preheader', () => {
    const body = errorOf(() => render('Hello\n\nthere {{ subscriber.name | nope }}', ada));
    expect(body).toMatchObject({ part: 'body', line: 3 });
    expect(body.message).toBe('Body, line 3: undefined filter: nope');
    expect(errorOf(() => render('a\n{% if x %}\nb', ada)).message).toMatch(
      /^Body, line 2: tag .* not closed/,
    );
    expect(errorOf(() => render('x', ada, { subject: 'Hi {{ name' })).message).toMatch(
      /^Subject, line 1:/,
    );
    expect(errorOf(() => render('x', ada, { preheader: '{% endif %}' })).part).toBe('preheader');
  });

  it('has no includes, layouts or file access', () => {
    for (const tag of ['{% include "x" %}', '{% render "/etc/passwd" %}', '{% layout "a" %}']) {
      expect(errorOf(() => render(`a\n${tag}`, ada))).toMatchObject({ part: 'body', line: 2 });
    }
  });

  it('stops a runaway loop and a message over 1 MB', () => {
    const loop = errorOf(() => render('{% for i in (1..100000000) %}x{% endfor %}', ada));
    expect(loop.message).toMatch(/^Body, line 1: .*limit/);
    const nested = '{% for i in (1..100000) %}{% for j in (1..100000) %}x{% endfor %}{% endfor %}';
    expect(errorOf(() => render(nested, ada)).message).toMatch(/limit/);
    const big = errorOf(() =>
      render(`{% for i in (1..3000) %}${'abcd'.repeat(100)}{% endfor %}`, ada),
    );
    expect(big.message).toBe('Body: the rendered email is larger than 1 MB');
  });
});

describe('the plain-text part', () => {
  it('underlines a heading with a merge tag as long as it is once filled in', () => {
    const out = render(
      '# Hello {{ subscriber.first_name | default: "dear reader" }}\n\nText.\n\n## Plain heading',
      ada,
    );
    expect(out.text).toContain('Hello Ada\n=========\n\nText.');
    expect(out.text).toContain('Plain heading\n=============');
    const nobody = render('# Hello {{ subscriber.first_name | default: "dear reader" }}', null);
    expect(nobody.text).toMatch(/^Hello dear reader\n={17}$/m);
    expect(nobody.text).not.toContain('\uE000');
  });

  it('draws no underline under a heading that renders empty', () => {
    const out = render('# {{ subscriber.attributes.missing }}\n\nText.', ada);
    expect(out.text).not.toMatch(/^=+$/m);
    expect(out.text).not.toContain('\uE000');
    expect(out.text).toMatch(/^Text\.$/m);
  });
});

describe('links in the plain-text part', () => {
  it('writes a link labelled with its own address once, even when both are a merge tag', () => {
    const out = render(
      'Share: [{{ subscriber.attributes.site }}]({{ subscriber.attributes.site }}) and [{{ subscriber.email }}]({{ subscriber.attributes.site }}).',
      { ...ada, attributes: { site: 'https://ada.example.com/' } },
    );
    expect(out.text).toContain(
      'Share: https://ada.example.com/ and ada@example.com (https://ada.example.com/).',
    );
    expect(out.html).toContain('href="https://ada.example.com/"');
  });
});
