// The preferences function's requests: GET shows the page; POST saves the form or runs one of the
// page's actions. Each write is one SQL function (one transaction); the token is the only proof, and
// names the campaign or automation step an unsubscribe here counts for.
import { rpc } from '../_shared/db.ts';
import { json, readJsonObject } from '../_shared/http.ts';
import { readSelfServiceToken, tokenFrom } from '../_shared/self-service-token.ts';
import { isTestSubscriber } from '../_shared/subscriber-mail.ts';
import { parsePreferencesRequest } from './input.ts';

export async function handlePreferences(req: Request): Promise<Response> {
  if (req.method === 'GET') {
    const { subscriberId } = readSelfServiceToken(tokenFrom(req), 'preferences');
    // A test email's link (subscriber-mail.ts): recognised, and nothing is read or changed.
    if (isTestSubscriber(subscriberId)) return json({ test: true });
    return json(await rpc('get_preferences', { p_subscriber: subscriberId }));
  }
  const body = await readJsonObject(req);
  const request = parsePreferencesRequest(body);
  // The signed token names the campaign or automation step whose email linked here (if any): an
  // unsubscribe made on this page counts for it, as one through the unsubscribe link does.
  const token = readSelfServiceToken(tokenFrom(req, body), 'preferences');
  const { subscriberId } = token;
  if (isTestSubscriber(subscriberId)) return json({ test: true });
  const source = { p_campaign: token.campaignId, p_step: token.stepId };
  switch (request.kind) {
    case 'update':
      return json(
        await rpc('update_preferences_from_email', {
          p_subscriber: subscriberId,
          p_name: request.name,
          p_lists: request.lists,
          ...source,
        }),
      );
    case 'unsubscribe_all':
      return json(
        await rpc('unsubscribe_all_from_email', { p_subscriber: subscriberId, ...source }),
      );
    case 'export':
      return json({ data: await rpc('export_subscriber', { p_subscriber: subscriberId }) });
    case 'delete':
      return json(await rpc('delete_subscriber_data', { p_subscriber: subscriberId }));
  }
}
