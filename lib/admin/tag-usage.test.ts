// Unit tests for reading and wording what uses a tag (the tags screen's delete confirmation).
import { describe, expect, it } from 'vitest';
import {
  describeTagHolders,
  describeTagUse,
  describeTagUses,
  parseTagUsage,
  tagInUse,
} from './tag-usage';

const answer = {
  id: 't1',
  name: 'VIP',
  subscribers: '12',
  segments: [{ id: 's1', name: 'VIPs' }],
  automations: [
    {
      id: 'a1',
      name: 'Welcome',
      status: 'active',
      uses: [
        { use: 'trigger' },
        { use: 'tag_remove', step: 3 },
        { use: 'condition', step: 2 },
        { use: 'goal' },
        { use: 'teleport' },
        { use: 'tag_add', step: 0 },
      ],
    },
  ],
};

describe('parseTagUsage', () => {
  it('reads the answer, counting in numbers and leaving out uses it does not know', () => {
    const usage = parseTagUsage(answer);
    expect(usage.subscribers).toBe(12);
    expect(usage.segments).toEqual([{ id: 's1', name: 'VIPs' }]);
    expect(usage.automations[0]!.uses).toEqual([
      { use: 'trigger' },
      { use: 'tag_remove', step: 3 },
      { use: 'condition', step: 2 },
      { use: 'goal' },
    ]);
  });

  it('reads nothing usable as an unused tag with no subscribers', () => {
    const usage = parseTagUsage(null);
    expect(usage).toEqual({ id: '', name: '', subscribers: 0, segments: [], automations: [] });
    expect(tagInUse(usage)).toBe(false);
  });
});

describe('wording', () => {
  it('names each use and joins them', () => {
    expect(describeTagUse({ use: 'trigger' })).toBe('starts when someone gets it');
    expect(describeTagUse({ use: 'tag_add', step: 2 })).toBe('step 2 adds it');
    expect(describeTagUse({ use: 'condition', step: 4 })).toBe("step 4's condition names it");
    expect(describeTagUses([{ use: 'goal' }])).toBe('its goal names it');
    expect(describeTagUses(parseTagUsage(answer).automations[0]!.uses)).toBe(
      "starts when someone gets it, step 3 removes it, step 2's condition names it and its goal names it",
    );
    expect(describeTagUses([])).toBe('');
  });

  it('counts what holds the tag, in the singular and plural', () => {
    const usage = parseTagUsage(answer);
    expect(tagInUse(usage)).toBe(true);
    expect(describeTagHolders(usage)).toBe('1 segment and 1 automation');
    expect(
      describeTagHolders({
        ...usage,
        segments: [...usage.segments, ...usage.segments],
        automations: [],
      }),
    ).toBe('2 segments');
  });
});
