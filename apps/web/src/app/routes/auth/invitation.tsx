import '../../full-styles.ts';
import { useNavigate, useSearchParams } from 'react-router';
import { InvitationForm } from '../../../features/auth/components/invitation-form.tsx';
import { ADMIN_HOME, EDITOR_HOME } from '../../homes.ts';

/** `/auth/invitation?token=…` — the link of an invitation e-mail: set name and password, enter with the invited role. */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return <InvitationForm token={params.get('token')} onSignedIn={(role) => navigate(role === 'editor' ? EDITOR_HOME : ADMIN_HOME, { replace: true })} />;
}
