import '../../full-styles.ts';
import { useNavigate, useSearchParams } from 'react-router';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form.tsx';

/** `/auth/reset-password?token=…` — the link of the reset e-mail; success sends the user to sign in. */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return <ResetPasswordForm token={params.get('token')} onDone={() => navigate('/auth/login?reset=done', { replace: true })} />;
}
