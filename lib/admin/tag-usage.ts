// What uses a tag (public.tag_usage, 20261201400100): its subscribers, the segments whose rules name
// it and the automations that start on it or name it in a step or their goal; read as typed values
// and worded for the tags screen's delete confirmation. A tag anything saved names cannot be deleted.
import type { Json } from '../database.types';

export type TagUse =
  | { use: 'trigger' }
  | { use: 'goal' }
  | { use: 'tag_add' | 'tag_remove' | 'condition'; step: number };

export interface TagUsage {
  id: string;
  name: string;
  subscribers: number;
  segments: Array<{ id: string; name: string }>;
  automations: Array<{ id: string; name: string; status: string; uses: TagUse[] }>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function parseUse(value: unknown): TagUse | null {
  const use = record(value);
  const step = Number(use.step);
  switch (use.use) {
    case 'trigger':
    case 'goal':
      return { use: use.use };
    case 'tag_add':
    case 'tag_remove':
    case 'condition':
      return Number.isInteger(step) && step > 0 ? { use: use.use, step } : null;
    default:
      return null;
  }
}

/** tag_usage's answer as a TagUsage; anything unexpected in it is left out rather than guessed. */
export function parseTagUsage(data: Json | unknown): TagUsage {
  const usage = record(data);
  return {
    id: text(usage.id),
    name: text(usage.name),
    subscribers: Number(usage.subscribers) || 0,
    segments: items(usage.segments).map((s) => ({
      id: text(record(s).id),
      name: text(record(s).name),
    })),
    automations: items(usage.automations).map((a) => ({
      id: text(record(a).id),
      name: text(record(a).name),
      status: text(record(a).status),
      uses: items(record(a).uses)
        .map(parseUse)
        .filter((u): u is TagUse => u !== null),
    })),
  };
}

/** True when a segment or an automation names the tag, so it cannot be deleted. */
export function tagInUse(usage: TagUsage): boolean {
  return usage.segments.length > 0 || usage.automations.length > 0;
}

/** "starts when someone gets it", "step 2 adds it", "step 4's condition names it", "its goal names it". */
export function describeTagUse(use: TagUse): string {
  switch (use.use) {
    case 'trigger':
      return 'starts when someone gets it';
    case 'goal':
      return 'its goal names it';
    case 'tag_add':
      return `step ${use.step} adds it`;
    case 'tag_remove':
      return `step ${use.step} removes it`;
    case 'condition':
      return `step ${use.step}'s condition names it`;
  }
}

/** The uses of one automation as one phrase: "step 2 adds it and its goal names it". */
export function describeTagUses(uses: TagUse[]): string {
  const parts = uses.map(describeTagUse);
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "2 segments and 1 automation": what holds a tag back from deletion. */
export function describeTagHolders(usage: TagUsage): string {
  const parts: string[] = [];
  const s = usage.segments.length;
  const a = usage.automations.length;
  if (s > 0) parts.push(`${s} ${s === 1 ? 'segment' : 'segments'}`);
  if (a > 0) parts.push(`${a} ${a === 1 ? 'automation' : 'automations'}`);
  return parts.join(' and ');
}
