import { StaffPage } from '../../features/staff/components/staff-page.tsx';

/** `/staff` — Anagrafiche → Staff (admins): accounts, approvals, roles, invitations. */
export function Component() {
  return <StaffPage />;
}
