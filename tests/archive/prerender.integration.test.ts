// Issue pages, feeds and sitemap against a running emulator: the build's reads
// (prerenderArchive, issuePageProps, as getStaticPaths/getStaticProps call them), the live feed
// function, and the SQL check that keeps a campaign slug off the site's routes under /archive/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index';
import { campaignWriteError } from '../../lib/admin/campaign-editor-form';
import { callFunction, stopScheduler } from '../functions/kit';
import { serviceClient, signedInUser, type Client, type TeamUser } from '../rls/team-kit';

const tag = randomUUID().slice(0, 8);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
let emu: RunningEmulator;
let service: Client;
let admin: TeamUser;
let site: Server;
let siteUrl: string;
/** What the deployed site's /archive/prerendered.json says (the feed function reads it). */
let deployed: string[] = [];

async function publish(subject: string, body = '<p>Hello</p>', slug: string | null = null) {
  const inserted = await service
    .from('campaigns')
    .insert({
      name: subject,
      subject,
      preheader: `About ${subject}`,
      body_md: subject,
      body_html: body,
      archive: true,
      slug,
    })
    .select('id')
    .single();
  if (inserted.error) throw new Error(inserted.error.message);
  for (const status of ['sending', 'sent'] as const) {
    const { error } = await service.from('campaigns').update({ status }).eq('id', inserted.data.id);
    if (error) throw new Error(error.message);
  }
  const row = await service
    .from('campaigns')
    .select('id, slug')
    .eq('id', inserted.data.id)
    .single();
  return row.data!;
}

let spring: { id: string; slug: string | null };
let plain: { id: string; slug: string | null };

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/archive/prerendered.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ slugs: deployed }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  process.env.POSTBOX_SITE_URL = siteUrl;
  emu = await startEmulator({
    memory: true,
    port: 0,
    dbPort: null,
    mailWebPort: 0,
    mailSmtpPort: 0,
  });
  await stopScheduler(emu);
  service = serviceClient(emu);
  admin = await signedInUser(emu, service, 'admin');
  // The build reads the project it is configured for (lib/config.ts reads these when loaded).
  process.env.NEXT_PUBLIC_SUPABASE_URL = emu.url;
  process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = emu.keys.publishable;
  spring = await publish(
    `Spring notes ${tag}`,
    '<p>Hi</p><img src="https://cdn.example/spring.png" alt="Spring">',
  );
  plain = await publish('Issue');
}, 180_000);

afterAll(async () => {
  await emu?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('campaign slugs and the routes under /archive/', () => {
  it.each(['issue', 'index'])(
    'refuses the slug %s, which the editor shows on the slug field',
    async (slug) => {
      const draft = await admin.client
        .from('campaigns')
        .insert({ name: `Draft ${tag}`, subject: 'Draft', body_md: 'x', archive: true })
        .select('id')
        .single();
      expect(draft.error).toBeNull();
      const { error } = await admin.client
        .from('campaigns')
        .update({ slug })
        .eq('id', draft.data!.id);
      expect(error?.code).toBe('23514');
      expect(campaignWriteError(error!).field).toBe('slug');
      const refusedInsert = await admin.client
        .from('campaigns')
        .insert({ name: 'x', subject: 'x', body_md: 'x', slug });
      expect(refusedInsert.error?.code).toBe('23514');
    },
  );

  it('moves a slug made from the subject "Issue" aside with the id', () => {
    expect(plain.slug).toBe(`issue-${plain.id.replace(/-/g, '').slice(0, 8)}`);
  });
});

describe('the build', () => {
  it('pre-renders every published issue and writes feeds and a sitemap that parse back', async () => {
    const { prerenderArchive } = await import('../../lib/build/archive-files');
    const { slugs, files } = await prerenderArchive('https://news.example.com');
    expect(slugs).toEqual(expect.arrayContaining([spring.slug, plain.slug]));
    expect(JSON.parse(files['/archive/prerendered.json']!).slugs).toEqual(slugs);

    const rss = files['/feed.xml']!;
    expect(XMLValidator.validate(rss)).toBe(true);
    const items = [parser.parse(rss).rss.channel.item].flat();
    const item = items.find((i: { title: string }) => i.title === `Spring notes ${tag}`);
    expect(item.link).toBe(`https://news.example.com/archive/${spring.slug}/`);
    expect(item['content:encoded']).toContain('https://cdn.example/spring.png');

    const atom = files['/atom.xml']!;
    expect(XMLValidator.validate(atom)).toBe(true);
    const entries = [parser.parse(atom).feed.entry].flat();
    expect(entries.map((e: { link: { '@href': string } }) => e.link['@href'])).toContain(
      `https://news.example.com/archive/${plain.slug}/`,
    );

    const locs = [new XMLParser().parse(files['/sitemap.xml']!).urlset.url]
      .flat()
      .map((u: { loc: string }) => u.loc);
    expect(locs).toContain(`https://news.example.com/archive/${spring.slug}/`);
    expect(files['/robots.txt']).toContain('Sitemap: https://news.example.com/sitemap.xml');
  });

  it("gives an issue page its own title, description and card, with the issue's first image", async () => {
    const { issuePageProps } = await import('../../lib/build/archive-props');
    const { clearBuildCache } = await import('../../lib/build/fetch-public');
    const props = await issuePageProps(spring.slug!);
    expect(props.issue?.subject).toBe(`Spring notes ${tag}`);
    expect(props.meta).toMatchObject({
      title: `Spring notes ${tag}`,
      description: `About Spring notes ${tag}`,
      canonical: `${siteUrl}/archive/${spring.slug}/`,
      image: 'https://cdn.example/spring.png',
    });
    // The identity goes into the page too, under the hook's key.
    expect(props.fallback['public-settings']).toMatchObject({ site_name: expect.any(String) });
    // An issue unpublished since the paths were read: a page that says so, never a 404.
    await service.from('campaigns').update({ archive: false }).eq('id', plain.id);
    clearBuildCache(); // a build reads each thing once; this stands for a later build worker
    const gone = await issuePageProps(plain.slug!);
    expect(gone).toMatchObject({ issue: null, meta: null });
    await service.from('campaigns').update({ archive: true }).eq('id', plain.id);
  });
});

describe("the archive's newest page at build", () => {
  it('is in the props under the key the page reads, as the browser then reads it', async () => {
    const { archiveStaticProps } = await import('../../lib/build/public-props');
    const { clearBuildCache } = await import('../../lib/build/fetch-public');
    const { ARCHIVE_NEWEST_KEY } = await import('../../lib/use-archive');
    const { archivePage, archiveArgs } = await import('../../lib/archive');
    const { publicRest } = await import('../../lib/supabase-public');
    clearBuildCache();
    const { props } = await archiveStaticProps();
    const rows = props.fallback[ARCHIVE_NEWEST_KEY] as Parameters<typeof archivePage>[1];
    expect(props.fallback['public-settings']).toMatchObject({ site_name: expect.any(String) });
    // Newest first: the issue published last (plain) before the one before it (spring).
    const ids = rows.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([spring.id, plain.id]));
    expect(ids.indexOf(plain.id)).toBeLessThan(ids.indexOf(spring.id));
    // The very rows the browser's first read answers, so hydration and revalidation change nothing.
    const read = await publicRest.rpc('archive_issues', archiveArgs({ kind: 'newest' }));
    expect(read.error).toBeNull();
    expect(rows).toEqual(read.data);
    expect(archivePage({ kind: 'newest' }, rows).issues[0]).toMatchObject({
      subject: expect.any(String),
      finished_at: expect.any(String),
    });
  });
});

describe('the feed function', () => {
  it('serves RSS and Atom live, pretty links only for what the deployed site pre-rendered', async () => {
    deployed = [spring.slug!];
    const rss = await callFunction(emu, 'feed');
    expect(rss.status).toBe(200);
    expect(rss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(rss.text)).toBe(true);
    const items = [parser.parse(rss.text).rss.channel.item].flat();
    const links = Object.fromEntries(
      items.map((i: { title: string; link: string }) => [i.title, i.link]),
    );
    expect(links[`Spring notes ${tag}`]).toBe(`${siteUrl}/archive/${spring.slug}/`);
    // Published after the deployed build: the page that reads it in the browser.
    expect(links.Issue).toBe(`${siteUrl}/archive/issue/?slug=${plain.slug}`);

    const atom = await callFunction(emu, 'feed', { query: { format: 'atom' } });
    expect(atom.status).toBe(200);
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(atom.text)).toBe(true);
    expect([parser.parse(atom.text).feed.entry].flat().length).toBe(items.length);
  });

  it('answers a bad format and a wrong method in the catalogue shape', async () => {
    const bad = await callFunction(emu, 'feed', { query: { format: 'json' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_input', field: 'format' } });
    const post = await callFunction(emu, 'feed', { body: {} });
    expect(post.status).toBe(405);
  });
});
