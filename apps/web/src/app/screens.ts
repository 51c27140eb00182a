import { can, isStaffRole, type Permission } from '@sf/contract/roles';

/**
 * Every screen of the signed-in area, declared once: its path and the permission it needs. The
 * router puts the permission on the route's `handle` (the guard refuses a screen the role may not
 * use), and the S14 menu (navigation.tsx) is built from the same entries, so a menu entry and its
 * screen can never disagree about who may see them. Kept apart from the menu (and its icons): the
 * router, which the sign-in page loads, needs only this.
 */
export const SCREENS = {
  dashboard: { path: '/dashboard', permission: 'dashboard:read' },
  news: { path: '/news', permission: 'news:read' },
  customers: { path: '/customers', permission: 'customers:read' },
  merchants: { path: '/merchants', permission: 'merchants:read' },
  programs: { path: '/programs', permission: 'programs:read' },
  ledger: { path: '/ledger', permission: 'ledger:read' },
  staff: { path: '/staff', permission: 'staff:manage' },
  rewards: { path: '/rewards', permission: 'rewards:read' },
  approvals: { path: '/approvals', permission: 'proofs:read' },
  privacyRequests: { path: '/privacy-requests', permission: 'privacy:read' },
  imports: { path: '/imports', permission: 'imports:read' },
  audit: { path: '/audit', permission: 'audit:read' },
  apiKeys: { path: '/api-keys', permission: 'apikeys:manage' },
  campaigns: { path: '/campaigns', permission: 'campaigns:read' },
} as const satisfies Record<string, { path: string; permission: Permission }>;

export type ScreenId = keyof typeof SCREENS;

/** A customer's page, under the Clienti screen. */
export function customerPath(id: string): string {
  return `${SCREENS.customers.path}/${id}`;
}

/** A reward's page, under the Premi screen. */
export function rewardPath(id: string): string {
  return `${SCREENS.rewards.path}/${id}`;
}

/**
 * Approvazioni showing the approved proofs of one kind of one customer (by card number, in the search
 * box, so that the operator sees what the list is narrowed to): where a social bonus in Movimenti leads.
 */
export function approvedProofsPath(proof: { kind: string }, cardNumber: string): string {
  return `${SCREENS.approvals.path}?${new URLSearchParams({ q: cardNumber, kind: proof.kind, status: 'approved' }).toString()}`;
}

/** What a route's `handle` carries (react-router `useMatches`): the screen (its menu entry names the tab) and who may open it. */
export type ScreenHandle = { screen: ScreenId; permission: Permission };

export function screenHandle(id: ScreenId): ScreenHandle {
  return { screen: id, permission: SCREENS[id].permission };
}

/** Whether a role (a staff role, e.g. a token's claim) may open the screen: what both of a deep link's prefetches check. */
export function mayOpenScreen(role: unknown, id: ScreenId): boolean {
  return isStaffRole(role) && can(role, SCREENS[id].permission);
}
