import { useCallback, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { InAppNavigation } from '../../components/ui/in-app-link.tsx';

/** Inside the router: the app's plain links (`InAppLink`, `TextLink`, the menu's) move through it, as its `Link` does. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const moveTo = useCallback((to: string) => void navigate(to), [navigate]);
  return <InAppNavigation value={moveTo}>{children}</InAppNavigation>;
}
