// Hooks of campaign templates: every template (read again after each write), one template for the
// editor's starting form, and create, rename and delete.
import { useCallback } from 'react';
import { mutate } from 'swr';
import { supabase } from '../supabase';
import { queryKey, useQuery } from '../use-query';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  loadTemplate,
  renameTemplate,
  type TemplateContent,
} from './templates';

const templatesKey = () => queryKey('admin/templates');
const templateKey = (id: string) => queryKey('admin/templates/one', { id });

function revalidateTemplates(): Promise<unknown> {
  return mutate((key) => typeof key === 'string' && key.startsWith('admin/templates'));
}

export function useTemplates() {
  return useQuery(templatesKey(), () => listTemplates(supabase));
}

/** One template (`id` null: none, as for a blank campaign). */
export function useTemplate(id: string | null) {
  return useQuery(id ? templateKey(id) : null, () => loadTemplate(supabase, id!), {
    revalidateOnFocus: false,
  });
}

export function useTemplateWrites() {
  const create = useCallback(async (content: TemplateContent) => {
    const result = await createTemplate(supabase, content);
    if (result.ok) await revalidateTemplates().catch(() => undefined);
    return result;
  }, []);
  const rename = useCallback(async (id: string, name: string) => {
    const result = await renameTemplate(supabase, id, name);
    if (result.ok) await revalidateTemplates().catch(() => undefined);
    return result;
  }, []);
  const remove = useCallback(async (id: string) => {
    const result = await deleteTemplate(supabase, id);
    if (result.ok) await revalidateTemplates().catch(() => undefined);
    return result;
  }, []);
  return { create, rename, remove };
}
