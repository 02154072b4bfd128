// Reload on change (npm run dev): the functions service watching a copy of the fixtures.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../gateway/types.js';
import { KEYS } from '../keys.js';
import { loadProjectConfig } from '../config.js';
import { createFunctionsService } from './service.js';
import { createFixtureProject, type FixtureProject } from './test-project.js';

const ORIGIN = 'http://127.0.0.1:1';
let project: FixtureProject;
let service: Service;

// No emulator needed: none of these functions calls back, and the service answers web requests.
beforeAll(async () => {
  project = await createFixtureProject('MY_SECRET=original\n');
  const config = await loadProjectConfig(join(project.dir, 'supabase', 'config.toml'));
  service = createFunctionsService({
    functionsDir: project.functionsDir,
    config: config.functions,
    url: ORIGIN,
    keys: KEYS,
    dbUrl: null,
    watch: true,
  });
});

afterAll(async () => {
  await service?.close?.();
  await project?.remove();
});

const get = (path: string) =>
  service.handle(new Request(`${ORIGIN}/functions/v1/${path}`), {
    apikey: null,
    remoteAddress: '127.0.0.1',
  });

describe('reload', () => {
  it('serves the new code after a function file changes', async () => {
    expect(await (await get('reload')).text()).toBe('version 1');
    await writeFile(
      join(project.functionsDir, 'reload', 'index.ts'),
      "Deno.serve(() => new Response('version 2'));\n",
    );
    let body = '';
    for (let i = 0; i < 50 && body !== 'version 2'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      body = await (await get('reload')).text();
    }
    expect(body).toBe('version 2');
  });
  it('reloads every function when shared code or .env changes', async () => {
    const { functionsDir } = project;
    expect((await get('echo-public')).headers.get('x-reloaded')).toBeNull();
    await writeFile(
      join(functionsDir, '_shared', 'cors.ts'),
      "export const corsHeaders = { 'Access-Control-Allow-Origin': '*', 'x-reloaded': 'yes' };\n",
    );
    await writeFile(join(functionsDir, '.env'), 'MY_SECRET=rotated\n');
    const poll = async (path: string, done: (res: Response) => Promise<boolean>) => {
      for (let i = 0; i < 50; i++) {
        if (await done(await get(path))) return true;
        await new Promise((r) => setTimeout(r, 200));
      }
      return false;
    };
    expect(await poll('echo-public', async (res) => res.headers.get('x-reloaded') === 'yes')).toBe(
      true,
    );
    expect(await poll('env', async (res) => (await res.json()).MY_SECRET === 'rotated')).toBe(true);
  });
});
