/**
 * Roles and permissions, declared once (CONTRIBUTING.md convention 7). The API guard and the web `<Can>` read
 * this same map: the server decides, the client only hides.
 */
export const STAFF_ROLES = ['admin', 'editor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Roles an account may hold. `member` (and no role at all) may not sign in to the back-office. */
export const ACCOUNT_ROLES = ['admin', 'editor', 'member'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export const PERMISSIONS = {
  /** Any signed-in staff member: own profile, own password, user-by-token. */
  'self:read': ['admin', 'editor'],
  'self:update': ['admin', 'editor'],
  'news:read': ['admin', 'editor'],
  'news:write': ['admin', 'editor'],
  'news:publish': ['admin', 'editor'],
  'dashboard:read': ['admin'],
  'audit:read': ['admin'],
  'staff:manage': ['admin'],
  'customers:read': ['admin'],
  'customers:write': ['admin'],
  'merchants:read': ['admin'],
  'merchants:write': ['admin'],
  'programs:read': ['admin'],
  'programs:write': ['admin'],
  'ledger:read': ['admin'],
  'ledger:write': ['admin'],
  /** Manual, signed corrections of a balance (kind `adjust`). */
  'points:adjust': ['admin'],
  /** Keys of the integration API (tills, the customers' app): create, list, revoke. */
  'apikeys:manage': ['admin'],
  /** Premi: rewards, their vouchers (generate, import, void, use at a till) and redemptions. */
  'rewards:read': ['admin'],
  'rewards:write': ['admin'],
  'rewards:redeem': ['admin'],
  'vouchers:use': ['admin'],
  /** Approvazioni: the social-action proofs queue and its decisions. */
  'proofs:read': ['admin'],
  'proofs:decide': ['admin'],
  /** GDPR requests: read the queue, act on them (export, erase, restrict). */
  'privacy:read': ['admin'],
  'privacy:write': ['admin'],
  /** CSV imports of customers and opening balances. */
  'imports:read': ['admin'],
  'imports:write': ['admin'],
  /** Campagne: e-mail campaigns to consenting customers (issue 28). */
  'campaigns:read': ['admin'],
  'campaigns:write': ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function isStaffRole(role: unknown): role is StaffRole {
  return typeof role === 'string' && (STAFF_ROLES as readonly string[]).includes(role);
}

export function can(role: string | null | undefined, permission: Permission): boolean {
  if (!isStaffRole(role)) return false;
  return (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}
