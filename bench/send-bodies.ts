// The send benchmark's campaign bodies (issue 21: merge tags) and the process-queue Deno process's
// CPU time, read from /proc so a run can report CPU milliseconds per message.
import { readdir, readFile, readlink } from 'node:fs/promises';

export interface CampaignBody {
  name: string;
  subject: string;
  body_md: string;
}

const SECTIONS = 12;

/**
 * A newsletter of ordinary length (12 sections, about 14 kB a message), no merge tags: the tagged
 * newsletter below as one reader gets it, its tags written out as the values they take for a
 * typical reader (a first name, an address of the fixture's length, the default team, the site's
 * name). Both sides send the same bytes, so the ratio is what the tags cost (Liquid per message, a
 * subject of each reader's own) and not that a longer email takes longer to encode and send: until
 * 2026-12-02 this body left those words out and its messages were 15 % smaller (14,393 vs 16,533
 * bytes), which the tagged side paid for byte by byte.
 */
export const PLAIN_BODY: CampaignBody = {
  name: 'plain',
  subject: 'Weekly news for Reader',
  body_md: Array.from(
    { length: SECTIONS },
    (_, i) =>
      `## Section ${i + 1}, Reader\n\n` +
      // `&#64;`: a written-out address would be autolinked by Markdown, a tag's value is not.
      `This week we shipped **things** for send-000000-5000&#64;example.com worth reading about: ` +
      `[the full story](https://example.com/post/${i}), plus notes from the ` +
      `team at The Postbox Letter.`,
  ).join('\n\n'),
};

/**
 * The same newsletter with a body full of tags: four in every section (a greeting with a default,
 * the address, an attribute with a default, the site name) and one in the subject — 49 in all.
 */
export const TAGGED_BODY: CampaignBody = {
  name: 'merge tags',
  subject: 'Weekly news for {{ subscriber.first_name | default: "you" }}',
  body_md: Array.from(
    { length: SECTIONS },
    (_, i) =>
      `## Section ${i + 1}, {{ subscriber.first_name | default: "friend" }}\n\n` +
      `This week we shipped **things** for {{ subscriber.email }} worth reading about: ` +
      `[the full story](https://example.com/post/${i}), plus notes from the ` +
      `{{ subscriber.attributes.team | default: "team" }} at {{ site.name }}.`,
  ).join('\n\n'),
};

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The parent pid of `pid` (field 4 of /proc/<pid>/stat), or null. */
async function parentPid(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/** True when `pid` is a descendant of `ancestor` (its parent-pid chain reaches it). */
export async function descendsFrom(pid: number, ancestor: number): Promise<boolean> {
  for (let p: number | null = pid, depth = 0; p !== null && p > 1 && depth < 16; depth++) {
    p = await parentPid(p);
    if (p === ancestor) return true;
  }
  return false;
}

/**
 * CPU milliseconds (user + system) used so far by the Deno processes running `fn` that this
 * process started (the emulator runs in the benchmark's own process, so its function processes are
 * our descendants): other emulators on the machine, started from the same checkout by other tests,
 * are not counted. Null where /proc cannot tell.
 */
export async function functionCpuMs(fn: string, ancestor = process.pid): Promise<number | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  let total: number | null = null;
  for (const pid of entries.filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('deno') || !(await readlink(`/proc/${pid}/cwd`)).endsWith(`/${fn}`))
        continue;
      if (!(await descendsFrom(Number(pid), ancestor))) continue;
      // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (Number.isFinite(ticks)) total = (total ?? 0) + (ticks * 1000) / TICKS_PER_SECOND;
    } catch {
      // The process ended or is not ours to read.
    }
  }
  return total;
}
