// A campaign's web version ("view in browser") by its signed token: web-version's JSON answer,
// checked, for the /web/ page.
import { asQueryResult, isRecord, isString } from './functions';
import { invokeFunction } from './invoke';
import { usePublicQuery } from './use-public-query';
import { queryKey, type QueryError } from './query';

export interface WebVersion {
  subject: string;
  preheader: string;
  /** The whole email document, shown only in a sandboxed iframe. */
  html: string;
  sent_at: string;
}

export function parseWebVersion(data: unknown): WebVersion | null {
  if (!isRecord(data)) return null;
  const { subject, preheader, html, sent_at: sentAt } = data;
  if (!isString(subject) || !isString(preheader) || !isString(html) || !isString(sentAt))
    return null;
  return { subject, preheader, html, sent_at: sentAt };
}

export function useWebVersion(token: string | null): {
  data: WebVersion | null | undefined;
  error: QueryError | undefined;
  retry: () => Promise<unknown>;
} {
  const { data, error, mutate } = usePublicQuery(
    token ? queryKey('web-version', { token }) : null,
    async () =>
      asQueryResult(
        await invokeFunction('web-version', parseWebVersion, {
          method: 'GET',
          query: { token: token ?? '' },
        }),
      ),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  return { data, error, retry: () => mutate() };
}
