// The deploy hook against the emulator: only the owner reads or writes it (every role tried with
// its own token), what asks for a rebuild and what does not, and one POST per quiet burst of
// changes, with the owner's headers and JSON body, sent by pg_net to a real HTTP server.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, createTeam, startIsolatedEmulator, type Team } from '../rls/team-kit';
import type { RunningEmulator } from '../../emulator/index';

let emu: RunningEmulator;
let team: Team;
let server: Server;
let hookUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

const HOOK = {
  headers: { Authorization: 'Bearer secret-token', Accept: 'application/vnd.github+json' },
  body: { event_type: 'postbox-publish' },
};

async function hookRow() {
  const { data } = await team.service.from('deploy_hooks').select('*').maybeSingle();
  return data;
}

/** Sends what is pending at once (the cron job waits for 5 quiet seconds first). */
async function callNow(): Promise<number | null> {
  const { rows } = await emu.db.query<{ id: number | null }>(
    `select private.call_deploy_hook(interval '0 seconds') as id`,
  );
  return rows[0]!.id;
}

async function waitForCalls(count: number): Promise<void> {
  const until = Date.now() + 15_000;
  while (received.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function publish(subject: string): Promise<string> {
  const inserted = await team.service
    .from('campaigns')
    .insert({
      name: subject,
      subject,
      body_md: subject,
      body_html: `<p>${subject}</p>`,
      archive: true,
    })
    .select('id')
    .single();
  for (const status of ['sending', 'sent'] as const) {
    await team.service.from('campaigns').update({ status }).eq('id', inserted.data!.id);
  }
  return inserted.data!.id;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/build`;
  emu = await startIsolatedEmulator();
  team = await createTeam(emu);
  // The cron job would send on its own 5 s after a change; the tests send with callNow().
  await emu.db.query(
    `select cron.alter_job(jobid, active := false) from cron.job where jobname = 'postbox-deploy-hook'`,
  );
}, 180_000);

afterAll(async () => {
  await emu?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

describe('who reads and writes the deploy hook', () => {
  it('lets the owner set it, and nobody else read, add, change or remove it', async () => {
    const owner = team.client('owner');
    const set = await owner
      .from('deploy_hooks')
      .insert({ url: hookUrl, ...HOOK })
      .select('url');
    expect(set.error).toBeNull();
    expect(set.data).toEqual([{ url: hookUrl }]);

    for (const actor of ACTORS.filter((a) => a !== 'owner' && a !== 'service')) {
      const db = team.client(actor);
      const read = await db.from('deploy_hooks').select('url, headers');
      // anon has no grant at all (an error); a member below owner sees no row.
      expect(read.data ?? [], actor).toEqual([]);
      const insert = await db.from('deploy_hooks').insert({ url: 'https://evil.example/' });
      expect(insert.error, actor).not.toBeNull();
      await db.from('deploy_hooks').update({ url: 'https://evil.example/' }).eq('id', true);
      await db.from('deploy_hooks').delete().eq('id', true);
      const test = await db.rpc('test_deploy_hook');
      expect(test.error, actor).not.toBeNull();
      const last = await db.rpc('deploy_hook_last_call');
      expect(last.data ?? [], actor).toEqual([]);
    }
    const row = await hookRow();
    expect(row).toMatchObject({ url: hookUrl, headers: HOOK.headers, body: HOOK.body });
    // Not the public settings: anon's view of the site has no trace of it.
    const settings = await team.client('anon').rpc('public_settings');
    expect(JSON.stringify(settings.data)).not.toContain('secret-token');
  });

  it('refuses what it cannot send: another scheme, a header that is not text', async () => {
    const owner = team.client('owner');
    const scheme = await owner
      .from('deploy_hooks')
      .update({ url: 'ftp://x.example/' })
      .eq('id', true);
    expect(scheme.error?.code).toBe('23514');
    const header = await owner
      .from('deploy_hooks')
      .update({ headers: { 'X-Count': 3 } })
      .eq('id', true);
    expect(header.error?.code).toBe('23514');
    const bookkeeping = await owner.from('deploy_hooks').update({ requests: 0 }).eq('id', true);
    expect(bookkeeping.error).not.toBeNull();
  });
});

describe('when it is called', () => {
  it('sends one POST with the headers and body for a publish, however many steps it took', async () => {
    const before = (await hookRow())!.requests;
    await publish('Deploy me');
    expect((await hookRow())!.requests).toBeGreaterThan(before);
    expect(await callNow()).not.toBeNull();
    expect(await callNow()).toBeNull(); // nothing new since
    await waitForCalls(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(received[0]!.headers.accept).toBe('application/vnd.github+json');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[0]!.body)).toEqual(HOOK.body);
  });

  it('asks for a build for the identity and public lists, not for drafts or private lists', async () => {
    const count = async () => (await hookRow())!.requests;
    let n = await count();
    const draft = await team.service
      .from('campaigns')
      .insert({ name: 'Draft', subject: 'Draft', body_md: 'x', archive: true })
      .select('id')
      .single();
    await team.service
      .from('campaigns')
      .update({ subject: 'Still a draft' })
      .eq('id', draft.data!.id);
    await team.service
      .from('lists')
      .insert({ slug: 'team-only', name: 'Team only', visibility: 'private' });
    expect(await count()).toBe(n);

    await team.client('owner').from('settings').update({ tagline: 'New words' }).eq('id', true);
    expect(await count()).toBe(++n);
    await team
      .client('admin')
      .from('lists')
      .update({ visibility: 'public' })
      .eq('slug', 'team-only');
    expect(await count()).toBe(++n);
    await team.service.from('lists').delete().eq('slug', 'team-only');
    expect(await count()).toBe(n + 1);
  });

  it("sends the owner's test call at once and shows its answer", async () => {
    const calls = received.length;
    await callNow(); // what the previous test asked for
    await waitForCalls(calls + 1);
    const test = await team.client('owner').rpc('test_deploy_hook');
    expect(test.error).toBeNull();
    expect(test.data).toEqual(expect.any(Number));
    await waitForCalls(calls + 2);
    expect(received).toHaveLength(calls + 2);
    const until = Date.now() + 10_000;
    let last = await team.client('owner').rpc('deploy_hook_last_call');
    while (!last.data?.[0]?.answered && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await team.client('owner').rpc('deploy_hook_last_call');
    }
    expect(last.data?.[0]).toMatchObject({ reason: 'test', status_code: 200, answered: true });
  });
});
