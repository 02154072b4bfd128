// Fixtures for the imports rows of the RLS matrix: queued imports into a public list, arranged as
// service role the way an admin's upload queues them. Public, because the imports trigger checks
// that the lists exist with the caller's rights: a signed-in stranger naming a private list they
// cannot see is refused before the policy (400 list_not_found), and the policy is what is tested.
import { randomUUID } from 'node:crypto';
import type { ImportTarget } from './matrix';
import { one, type Probe } from './probes';
import { untyped, type Client } from './team-kit';

/** Builds the probes over one service client and a member (the author of someone else's import). */
export function makeImportProbes(
  serviceClient: Client,
  otherMemberId: string,
): Record<ImportTarget, Probe> {
  const service = untyped(serviceClient);
  let publicList: Promise<string> | undefined;
  const list = () =>
    (publicList ??= (async () => {
      const slug = `rls-import-${randomUUID().slice(0, 8)}`;
      const row = await one(
        service
          .from('lists')
          .insert({ slug, name: slug, visibility: 'public' })
          .select('id')
          .single(),
        'seed public list',
      );
      return row.id as string;
    })());
  const objectPath = () => `rls/${randomUUID()}.csv`;
  const imports: Probe = {
    table: 'imports',
    columns: '*',
    async seed() {
      const object_path = objectPath();
      await one(
        service
          .from('imports')
          .insert({ object_path, list_ids: [await list()] })
          .select(),
        'seed import',
      );
      return { object_path };
    },
    // What the import dialog sends: the uploaded file, the chosen lists and the opt-in.
    async newRow() {
      const object_path = objectPath();
      return {
        row: { object_path, list_ids: [await list()], optin: 'confirmed' },
        key: { object_path },
      };
    },
    change: () => ({ optin: 'confirmed' }),
  };
  return {
    imports,
    'imports, worker columns': {
      ...imports,
      // Someone else's import with counters already moved: only import-subscribers writes those.
      async newRow() {
        const object_path = objectPath();
        return {
          row: {
            object_path,
            list_ids: [await list()],
            created_by: otherMemberId,
            total_rows: 1,
          },
          key: { object_path },
        };
      },
    },
  };
}
