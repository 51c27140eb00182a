import { useSearchParams } from 'react-router';
import { ConfirmEmailResult } from '../../../features/auth/components/confirm-email-result.tsx';

/** `/auth/confirm-email?token=…` — the link of the registration e-mail (B7). */
export function Component() {
  const [params] = useSearchParams();
  return <ConfirmEmailResult token={params.get('token')} />;
}
