import type { ReactNode } from 'react';
import { can, type Permission } from '@sf/contract/roles';
import { useCurrentUser } from '../lib/session.ts';

/** Shows its children only when the current user's role holds the permission. The API decides; this only hides. */
export function Can({ permission, children, fallback = null }: { permission: Permission; children: ReactNode; fallback?: ReactNode }) {
  const user = useCurrentUser();
  return <>{can(user?.role, permission) ? children : fallback}</>;
}

export function useCan(permission: Permission): boolean {
  return can(useCurrentUser()?.role, permission);
}
