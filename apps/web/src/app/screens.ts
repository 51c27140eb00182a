import { can, isStaffRole, type Permission } from '@sf/contract/roles';

/**
 * Every screen of the signed-in area, declared once: its path and the permission it needs. The
 * router puts the permission on the route's `handle` (the guard refuses a screen the role may not
 * use), and the S14 menu (navigation.tsx) is built from the same entries, so a menu entry and its
 * screen can never disagree about who may see them. Kept apart from the menu (and its icons): the
 * router, which the sign-in page loads, needs only this.
 *
 * `drawers`: the search parameters that address the screen's drawers and dialogs (`?customer=new`, a
 * customer's `?edit=1`), which the pages read with `useDrawerParam`. A move to another page that opens one
 * (Azioni → Nuovo cliente) leaves the focus to it (`FocusOnNewPage`, layouts/main-layout.tsx). Declared here
 * rather than by the pages as they render: a page not yet shown in the tab had declared nothing, and a
 * parameter one page had declared stayed a drawer on every other page (screens.test.ts holds the pages to it).
 */
export const SCREENS = {
  dashboard: { path: '/dashboard', permission: 'dashboard:read' },
  news: { path: '/news', permission: 'news:read', drawers: ['post'] },
  customers: { path: '/customers', permission: 'customers:read', drawers: ['customer', 'edit'] },
  merchants: { path: '/merchants', permission: 'merchants:read', drawers: ['merchant'] },
  programs: { path: '/programs', permission: 'programs:read', drawers: ['program'] },
  ledger: { path: '/ledger', permission: 'ledger:read' },
  staff: { path: '/staff', permission: 'staff:manage' },
  rewards: { path: '/rewards', permission: 'rewards:read', drawers: ['reward'] },
  approvals: { path: '/approvals', permission: 'proofs:read' },
  privacyRequests: { path: '/privacy-requests', permission: 'privacy:read', drawers: ['request'] },
  imports: { path: '/imports', permission: 'imports:read', drawers: ['import'] },
  audit: { path: '/audit', permission: 'audit:read' },
  apiKeys: { path: '/api-keys', permission: 'apikeys:manage' },
  campaigns: { path: '/campaigns', permission: 'campaigns:read', drawers: ['campaign'] },
} as const satisfies Record<string, { path: string; permission: Permission; drawers?: readonly string[] }>;

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
