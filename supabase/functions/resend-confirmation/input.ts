// What resend-confirmation is asked for: the subscribers to mail, as the subscribers page's rules
// (a selection is a rule {"field": "id", "op": "in"}), or a list of ids (the subscriber page's
// button). Only the shape is checked here; the SQL compiler checks the rules in full. Pure (no Deno
// globals), so vitest tests it too.
import {
  rulesForIds,
  rulesShapeProblem,
  type RuleGroup,
} from '../../../lib/admin/subscriber-rules.ts';
import { isUuid } from '../../../lib/uuid.ts';
import { invalidInput } from '../_shared/errors.ts';

/** As many ids as the rule compiler takes in one `in` rule. */
export const MAX_IDS = 1000;

/** The rules of a request body: `rules`, or `subscriber_ids` turned into rules. */
export function resendRules(body: Record<string, unknown>): RuleGroup {
  if ((body.rules === undefined) === (body.subscriber_ids === undefined)) {
    throw invalidInput('rules', 'send rules or subscriber_ids, one of them');
  }
  if (body.rules !== undefined) {
    const problem = rulesShapeProblem(body.rules);
    if (problem) throw invalidInput('rules', problem);
    return body.rules as RuleGroup;
  }
  const ids = body.subscriber_ids;
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_IDS || !ids.every(isUuid)) {
    throw invalidInput('subscriber_ids', `must be 1 to ${MAX_IDS} subscriber ids`);
  }
  return rulesForIds(ids as string[]);
}
