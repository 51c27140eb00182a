import { AuditPage } from '../../features/audit/components/audit-page.tsx';

/**
 * `/audit` — Pages → Audit (admins only). The ids inside a change (a customer's, a program's) come
 * named with the entry from the API, which knows every record, where a screen knows only the lists it loads.
 */
export function Component() {
  return <AuditPage />;
}
