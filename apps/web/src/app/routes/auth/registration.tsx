import '../../full-styles.ts';
import { Navigate, useNavigate } from 'react-router';
import { RegistrationForm } from '../../../features/auth/components/registration-form.tsx';
import { useSession } from '../../../lib/session.ts';
import { ADMIN_HOME, EDITOR_HOME } from '../../homes.ts';

export function Component() {
  const navigate = useNavigate();
  const session = useSession();
  if (session.status === 'signed-in') return <Navigate to="/" replace />;
  return <RegistrationForm onSignedIn={(role) => navigate(role === 'editor' ? EDITOR_HOME : ADMIN_HOME, { replace: true })} />;
}
