// Team roles (SPEC §6) and what each may do; the UI hides what the database would refuse anyway.
export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

export type Permission =
  | 'read'
  | 'write-campaigns'
  | 'upload-media'
  | 'send-test'
  | 'send-campaigns'
  | 'manage-lists'
  | 'manage-subscribers'
  | 'import-export'
  | 'delete-subscribers'
  | 'manage-settings'
  | 'manage-team';

const MINIMUM: Record<Permission, Role> = {
  read: 'viewer',
  'write-campaigns': 'editor',
  'upload-media': 'editor',
  'send-test': 'editor',
  'send-campaigns': 'admin',
  'manage-lists': 'admin',
  'manage-subscribers': 'admin',
  'import-export': 'admin',
  'delete-subscribers': 'owner',
  'manage-settings': 'owner',
  'manage-team': 'owner',
};

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

/** True when `role` may do `permission`, mirroring the policies in supabase/migrations. */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  return roleRank(role) >= roleRank(MINIMUM[permission]);
}

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};
