// Unit tests of the segment editor's model and the rule types' filter-bar translation.
import { describe, expect, it } from 'vitest';
import {
  defaultRule,
  editorField,
  FIELD_LABELS,
  OPERATORS,
  ruleBlank,
  withRule,
  type EditorField,
} from './segments-editor';
import { rulesFromFilters, type RuleGroup } from './subscriber-rules';
import { splitTags, tagNameProblem } from './tags';

describe('segment editor model', () => {
  it('every field has a label, operators, and a default rule it recognises as its own', () => {
    for (const field of Object.keys(FIELD_LABELS) as EditorField[]) {
      const rule = defaultRule(field);
      expect(editorField(rule), field).toBe(field);
      expect(Object.keys(OPERATORS[field])).toContain(rule.op);
    }
  });

  it('keeps rules it cannot show as a form', () => {
    expect(editorField({ field: 'id', op: 'in', value: [] })).toBeNull();
    expect(editorField({ field: 'segment', op: 'in', value: 'x' })).toBeNull();
    expect(editorField({ match: 'any', rules: [] })).toBeNull();
    expect(editorField({ field: 'email', op: 'empty' } as never)).toBeNull();
    expect(editorField({ field: 'attributes.plan', op: 'gt', value: 1 })).toBe('attribute');
  });

  it('names the blank a half-filled condition has', () => {
    expect(ruleBlank(defaultRule('tag'))).toBe('Choose a tag.');
    expect(ruleBlank(defaultRule('waitlist_position'))).toBe('Choose a waitlist.');
    expect(ruleBlank(defaultRule('email'))).toBe('Enter a value.');
    expect(ruleBlank({ field: 'name', op: 'empty' })).toBeNull();
    expect(ruleBlank({ field: 'attributes.', op: 'exists' })).toBe('Name the attribute.');
    expect(ruleBlank(defaultRule('opened'))).toBeNull();
  });

  it('replaces, appends and removes conditions without touching the original', () => {
    const group: RuleGroup = { match: 'all', rules: [defaultRule('status')] };
    const added = withRule(group, 1, defaultRule('tag'));
    expect(added.rules).toHaveLength(2);
    expect(group.rules).toHaveLength(1);
    expect(withRule(added, 0, null).rules).toEqual([defaultRule('tag')]);
    expect(withRule(added, 0, defaultRule('source')).rules[0]).toEqual(defaultRule('source'));
  });
});

describe('filter bar with a tag and a segment', () => {
  it('adds tag has and segment in to the rules', () => {
    expect(
      rulesFromFilters({
        search: '',
        listId: null,
        subscription: null,
        status: null,
        tagId: 't1',
        segmentId: 's1',
      }),
    ).toEqual({
      match: 'all',
      rules: [
        { field: 'tag', op: 'has', value: 't1' },
        { field: 'segment', op: 'in', value: 's1' },
      ],
    });
  });
});

describe('tag names', () => {
  it('splits an import cell on commas and semicolons, case-deduplicated', () => {
    expect(splitTags(' VIP; early ,vip,,Beta ')).toEqual(['VIP', 'early', 'Beta']);
    expect(splitTags('')).toEqual([]);
  });

  it('refuses what the database refuses', () => {
    expect(tagNameProblem('  ')).toBe('Enter a tag.');
    expect(tagNameProblem('a,b')).toBe('A tag cannot contain a comma or a semicolon.');
    expect(tagNameProblem('x'.repeat(65))).toBe('A tag has at most 64 characters.');
    expect(tagNameProblem(' VIP ')).toBeNull();
  });
});
