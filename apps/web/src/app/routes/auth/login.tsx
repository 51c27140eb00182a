import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session.ts';
import { homeAfterSignIn, safeRedirectTarget } from '../../homes.ts';
import { preloadAfterSignIn } from '../../preload.ts';
import { SignInPage } from '../../sign-in-page.tsx';

/** `/auth/login` inside the router (the first visit shows the same page without it: app/first-screen.tsx). */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  if (session.status === 'signed-in') return <Navigate to={homeAfterSignIn(session.user.role, safeRedirectTarget(params.get('redirect')))} replace />;
  return <SignInPage search={params} onSignedIn={(target) => navigate(target, { replace: true })} warmUp={(target) => void preloadAfterSignIn(target)} />;
}
