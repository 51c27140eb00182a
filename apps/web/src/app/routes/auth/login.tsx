import { Notice } from '../../../components/ui/notice.tsx';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '../../../features/auth/components/login-form.tsx';
import { loadCatalogues } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { ADMIN_HOME, EDITOR_HOME, safeRedirectTarget } from '../../guards.tsx';

/**
 * The signed-in area's layout (with Mantine's whole stylesheet, the data cache, the forms' code) and
 * texts, fetched while the sign-in request runs instead of after it (decision 010). The router's lazy
 * route then finds them loaded.
 */
function prefetchSignedInArea() {
  void import('../../layouts/main-layout.tsx').catch(() => undefined);
  void loadCatalogues().catch(() => undefined);
}

/** `/auth/login`: back to where the user was going (S9 `?redirect=`), or to their home. */
export function Component() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const redirect = safeRedirectTarget(params.get('redirect'));
  const home = (role: string | null) => redirect ?? (role === 'editor' ? EDITOR_HOME : ADMIN_HOME);

  if (session.status === 'signed-in') return <Navigate to={home(session.user.role)} replace />;
  return (
    <LoginForm
      onSignedIn={(role) => navigate(home(role), { replace: true })}
      onSubmitStart={prefetchSignedInArea}
      notice={
        params.get('reset') === 'done' ? (
          <Notice tone="success">{t('login.passwordChanged')}</Notice>
        ) : null
      }
    />
  );
}
