// The segment rule editor's model (issue 24): which fields the editor offers, each field's
// operators in words, a new rule's defaults, and which rules it can show as a form (anything else,
// e.g. a nested group or a selection of ids, is kept as it is and shown as "other condition").
import type { Rule, RuleGroup } from './subscriber-rules';

export type EditorField =
  | 'search'
  | 'email'
  | 'name'
  | 'status'
  | 'subscription'
  | 'tag'
  | 'attribute'
  | 'created_at'
  | 'source'
  | 'referrals'
  | 'received'
  | 'waitlist_position'
  | 'opened'
  | 'clicked';

export const FIELD_LABELS: Record<EditorField, string> = {
  search: 'Email or name',
  email: 'Email',
  name: 'Name',
  status: 'Subscriber status',
  subscription: 'Subscription',
  tag: 'Tag',
  attribute: 'Attribute',
  created_at: 'Signed up',
  source: 'Came from',
  referrals: 'Referrals',
  received: 'Campaigns received',
  waitlist_position: 'Waitlist place',
  opened: 'Opened a campaign',
  clicked: 'Clicked in a campaign',
};

const TEXT_OPS = {
  contains: 'contains',
  not_contains: 'does not contain',
  eq: 'is',
  neq: 'is not',
  starts_with: 'starts with',
  ends_with: 'ends with',
};

export const OPERATORS: Record<EditorField, Record<string, string>> = {
  search: { contains: 'contains' },
  email: TEXT_OPS,
  name: { ...TEXT_OPS, empty: 'is empty', not_empty: 'is not empty' },
  status: { eq: 'is', neq: 'is not' },
  subscription: { has: 'has', has_not: 'does not have' },
  tag: { has: 'has', has_not: 'does not have' },
  attribute: {
    eq: 'is',
    neq: 'is not',
    contains: 'contains',
    not_contains: 'does not contain',
    exists: 'is set',
    not_exists: 'is not set',
    gt: 'is more than',
    lt: 'is less than',
    before: 'is before',
    after: 'is after',
  },
  created_at: { after: 'after', before: 'before' },
  source: { eq: 'is', neq: 'is not' },
  referrals: { gt: 'more than', lt: 'fewer than' },
  received: { gt: 'more than', lt: 'fewer than' },
  waitlist_position: { lt: 'better than', gt: 'worse than' },
  opened: { since: 'since', not_since: 'not since' },
  clicked: { since: 'since', not_since: 'not since' },
};

/** The editor field a rule belongs to, or null when the editor cannot show it as a form. */
export function editorField(rule: Rule | RuleGroup): EditorField | null {
  if ('match' in rule) return null;
  const field: string = rule.field;
  if (field.startsWith('attributes.')) return 'attribute';
  if (field === 'id' || field === 'segment') return null;
  if (!(field in OPERATORS)) return null;
  return OPERATORS[field as EditorField][rule.op] ? (field as EditorField) : null;
}

/** A new condition on `field`, with values the database accepts once the blanks are filled. */
export function defaultRule(field: EditorField): Rule {
  switch (field) {
    case 'search':
      return { field: 'search', op: 'contains', value: '' };
    case 'email':
    case 'name':
      return { field, op: 'contains', value: '' };
    case 'status':
      return { field: 'status', op: 'eq', value: 'enabled' };
    case 'subscription':
      return { field: 'subscription', op: 'has', value: { status: 'confirmed' } };
    case 'tag':
      return { field: 'tag', op: 'has', value: '' };
    case 'attribute':
      return { field: 'attributes.plan', op: 'eq', value: '' };
    case 'created_at':
      return { field: 'created_at', op: 'after', value: { days_ago: 30 } };
    case 'source':
      return { field: 'source', op: 'eq', value: 'form' };
    case 'referrals':
    case 'received':
      return { field, op: 'gt', value: 0 };
    case 'waitlist_position':
      return { field: 'waitlist_position', op: 'lt', value: { list: '', position: 101 } };
    case 'opened':
    case 'clicked':
      return { field, op: 'since', value: { days_ago: 30 } };
  }
}

/** Operators that take no value. */
export function takesValue(op: string): boolean {
  return !['empty', 'not_empty', 'exists', 'not_exists'].includes(op);
}

/**
 * What the form must fix before the rules are worth sending, or null. The database checks
 * everything again; this only stops a half-filled condition from being counted as a refusal.
 */
export function ruleBlank(rule: Rule | RuleGroup): string | null {
  if ('match' in rule) return null;
  const value = (rule as { value?: unknown }).value;
  if (rule.field === 'tag' && !value) return 'Choose a tag.';
  if (rule.field === 'waitlist_position' && !(value as { list: string }).list) {
    return 'Choose a waitlist.';
  }
  if (rule.field.startsWith('attributes.') && rule.field.length === 'attributes.'.length) {
    return 'Name the attribute.';
  }
  if (
    ['search', 'email', 'name'].includes(rule.field) &&
    takesValue(rule.op) &&
    String(value ?? '').trim() === ''
  ) {
    return 'Enter a value.';
  }
  return null;
}

/** The rules with a condition replaced, added or removed (a new group; the old one is untouched). */
export function withRule(group: RuleGroup, index: number, rule: Rule | null): RuleGroup {
  const rules = [...group.rules];
  if (rule === null) rules.splice(index, 1);
  else if (index >= rules.length) rules.push(rule);
  else rules[index] = rule;
  return { ...group, rules };
}
