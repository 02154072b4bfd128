// What admin pages know about the signed-in member: the row, the role, and a permission check.
import { createContext, useContext } from 'react';
import type { Member } from '../../lib/use-member';
import type { Permission, Role } from '../../lib/roles';

export interface AdminContextValue {
  member: Member;
  role: Role;
  can: (permission: Permission) => boolean;
}

export const AdminContext = createContext<AdminContextValue | null>(null);

/** Inside <AdminLayout> only: the layout renders its children once the member is known. */
export function useAdmin(): AdminContextValue {
  const value = useContext(AdminContext);
  if (!value) throw new Error('useAdmin() must be used inside <AdminLayout>');
  return value;
}
