import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { can, isStaffRole } from '@sf/contract/roles';
import type { ScreenHandle } from './screens.ts';
import { notifyInfo } from '../lib/notify.ts';
import { sessionStore, useSession } from '../lib/session.ts';
import { translate } from '../lib/texts.ts';
import { ADMIN_HOME, EDITOR_HOME, loginPathFor } from './homes.ts';

function SignOutAndGoToLogin() {
  const location = useLocation();
  const session = useSession();
  useEffect(() => {
    // S9: nobody signed in → the stored session is removed too (it may be stale or tampered with).
    if (session.status === 'signed-in') sessionStore.signOut();
    else sessionStore.signOut(session.status === 'signed-out' ? session.reason : undefined);
    // Only on entry: the store change itself re-renders this guard.
  }, []);
  return <Navigate to={loginPathFor(location)} replace />;
}

/**
 * S9 sends an editor to News from anywhere; one who asked for an admins' screen (a link, a typed address,
 * a role taken away mid-session) is told why, or News would seem to be where the link led.
 */
function SendEditorToNews({ isScreenRefused }: { isScreenRefused: boolean }) {
  const isToldRef = useRef(false);
  useEffect(() => {
    // The ref, because StrictMode runs a new component's effects twice: one notice all the same.
    if (!isScreenRefused || isToldRef.current) return;
    isToldRef.current = true;
    notifyInfo(translate('layout:access.adminOnly'));
  }, [isScreenRefused]);
  return <Navigate to={EDITOR_HOME} replace />;
}

/** S9: the guard of the main layout. Reads the live session, so a role changed by a refresh applies at once. */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const matches = useMatches();
  if (session.status !== 'signed-in' || !isStaffRole(session.user.role)) return <SignOutAndGoToLogin />;
  // Each screen declares its permission on its route (app/navigation.tsx); the API decides, this only routes.
  const role = session.user.role;
  const isRefused = matches.some((match) => {
    const permission = (match.handle as Partial<ScreenHandle> | undefined)?.permission;
    return permission !== undefined && !can(role, permission);
  });
  // "/" is the way home, not a screen asked for: nothing refused there, nothing to explain.
  if (role === 'editor' && location.pathname !== EDITOR_HOME) return <SendEditorToNews isScreenRefused={isRefused} />;
  if (isRefused) {
    const home = role === 'editor' ? EDITOR_HOME : ADMIN_HOME;
    // Refused at home itself: a 404 rather than a redirect loop.
    return <Navigate to={location.pathname === home ? '/error/404' : home} replace />;
  }
  return <Outlet />;
}

export function HomeRedirect() {
  const session = useSession();
  const role = session.status === 'signed-in' ? session.user.role : null;
  return <Navigate to={role === 'editor' ? EDITOR_HOME : ADMIN_HOME} replace />;
}

/**
 * S8: unknown paths go to /error/404 — except for a signed-in editor, whom S9 sends to /news from
 * anywhere.
 */
export function UnknownPath() {
  const session = useSession();
  if (session.status === 'signed-in' && session.user.role === 'editor') return <Navigate to={EDITOR_HOME} replace />;
  return <Navigate to="/error/404" replace />;
}
