// The preferences function's requests: GET shows the page; POST saves the form or runs one of the
// page's actions. Each write is one SQL function (one transaction); the token is the only proof.
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
  const { subscriberId } = readSelfServiceToken(tokenFrom(req, body), 'preferences');
  if (isTestSubscriber(subscriberId)) return json({ test: true });
  switch (request.kind) {
    case 'update':
      return json(
        await rpc('update_preferences', {
          p_subscriber: subscriberId,
          p_name: request.name,
          p_lists: request.lists,
        }),
      );
    case 'unsubscribe_all':
      await rpc('unsubscribe_subscriber', {
        p_subscriber: subscriberId,
        p_lists: null,
        p_source: 'preferences',
      });
      return json(await rpc('get_preferences', { p_subscriber: subscriberId }));
    case 'export':
      return json({ data: await rpc('export_subscriber', { p_subscriber: subscriberId }) });
    case 'delete':
      return json(await rpc('delete_subscriber_data', { p_subscriber: subscriberId }));
  }
}
