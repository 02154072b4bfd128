// Data of Settings → Emails: the team's saved templates (public.email_templates; RLS lets members
// read, admins and the owner write), saving one, resetting one to the default (deleting its row)
// and a test send through send-campaign's `test_email` action; and the welcome automations that
// took over the welcome (issue 24), which the page links to.
import { useCallback } from 'react';
import { listWelcomeAutomations, type WelcomeAutomation } from '../../../../lib/admin/automations';
import type { SystemEmailKind, SystemTemplate } from '../../../../lib/email-render/system-emails';
import { readFunctionResult } from '../../../../lib/functions';
import { supabase } from '../../../../lib/supabase';
import { queryKey, toQueryError, useQuery, type QueryError } from '../../../../lib/use-query';

export type SavedTemplates = Partial<Record<SystemEmailKind, SystemTemplate>>;

const KEY = queryKey('admin/email-templates');

/** The welcome automations, one per public list unless the team deleted or added some. */
export function useWelcomeAutomations() {
  return useQuery<WelcomeAutomation[]>(queryKey('admin/welcome-automations'), () =>
    listWelcomeAutomations(supabase),
  );
}

export function useEmailTemplates() {
  const query = useQuery<SavedTemplates>(KEY, async () => {
    const { data, error, status } = await supabase
      .from('email_templates')
      .select('kind, subject, preheader, body_md');
    if (error) return { data: null, error: toQueryError(error, status) };
    const saved: SavedTemplates = {};
    for (const row of data ?? [])
      saved[row.kind as SystemEmailKind] = {
        subject: row.subject,
        preheader: row.preheader,
        body_md: row.body_md,
      };
    return { data: saved, error: null };
  });

  const save = useCallback(
    async (kind: SystemEmailKind, template: SystemTemplate): Promise<QueryError | null> => {
      const { error, status } = await supabase
        .from('email_templates')
        .upsert({ kind, ...template })
        .select('kind')
        .single();
      if (error) return toQueryError(error, status);
      await query.mutate();
      return null;
    },
    [query],
  );

  const reset = useCallback(
    async (kind: SystemEmailKind): Promise<QueryError | null> => {
      const { error, status } = await supabase.from('email_templates').delete().eq('kind', kind);
      if (error) return toQueryError(error, status);
      await query.mutate();
      return null;
    },
    [query],
  );

  return { ...query, save, reset };
}

/** Sends the template as it is in the form to the signed-in admin; an error's message, or null. */
export async function sendTestEmail(
  kind: SystemEmailKind,
  template: SystemTemplate,
): Promise<string | null> {
  const outcome = await readFunctionResult(
    await supabase.functions.invoke('send-campaign', {
      body: { action: 'test_email', kind, ...template },
    }),
    (data) => data,
  );
  return outcome.ok ? null : outcome.message;
}
