// Where each role lands and which post-login targets are allowed: no router here, so the sign-in page
// uses them without loading react-router (decision 010).

/** The path an editor may use (S9): the whole News area lives there. */
export const EDITOR_HOME = '/news';
export const ADMIN_HOME = '/dashboard';

export function loginPathFor(location: { pathname: string; search: string; hash?: string }): string {
  const target = `${location.pathname}${location.search}${location.hash ?? ''}`;
  return target === '/' || target === '' ? '/auth/login' : `/auth/login?redirect=${encodeURIComponent(target)}`;
}

/**
 * Only a path inside this app may be a post-login target (no `//evil.example` or `https://…`
 * open redirects).
 */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/auth/')) return null;
  return value;
}

/** Where a signed-in user goes from the sign-in page: the `?redirect=` target, or the role's home. */
export function homeAfterSignIn(role: string | null, redirect: string | null): string {
  return redirect ?? (role === 'editor' ? EDITOR_HOME : ADMIN_HOME);
}
