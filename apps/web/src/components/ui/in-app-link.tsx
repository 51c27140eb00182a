import { Anchor, type AnchorProps } from '@mantine/core';
import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

/**
 * How the app's plain links move inside it. Inside the router, its `navigate`
 * (app/layouts/router-navigation.tsx, in the /auth area and the signed-in layout); the sign-in page
 * opened first, before the router has loaded, provides one that loads the app at that address
 * (app/first-screen.tsx). Without a provider a link is a plain page load. Keeping react-router out of
 * the sign-in page is decision 010.
 */
export const InAppNavigation = createContext<((to: string) => void) | null>(null);

/** A click the app handles itself: the main button, no modifier (a new tab or window keeps the browser's way, as the router's Link does). */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/** A link's click handler: a plain click moves inside the app (then `onMoved`); any other keeps the browser's way. */
export function useInAppClick(to: string, onMoved?: () => void) {
  const navigate = useContext(InAppNavigation);
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || !isPlainClick(event)) return;
    event.preventDefault();
    navigate(to);
    onMoved?.();
  };
}

/** A Mantine `Anchor` that navigates in the app on a plain click (a new tab / window keeps the browser's way). */
export function InAppLink({ to, children, ...props }: AnchorProps & { to: string; children: ReactNode }) {
  const onClick = useInAppClick(to);
  return (
    <Anchor href={to} onClick={onClick} {...props}>
      {children}
    </Anchor>
  );
}

/**
 * A row's link (`isStrong`: the `fw={500}` of a row's main link), as `InAppLink`, in the table's own
 * size (Anchor's default is the body's 16 px against the cells' 14: the name took a wider column and wrapped).
 */
export function TextLink({ to, isStrong = false, children, ...props }: { to: string; isStrong?: boolean; children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'className' | 'style'>) {
  const onClick = useInAppClick(to);
  return (
    <Anchor href={to} onClick={onClick} fw={isStrong ? 500 : undefined} inherit {...props}>
      {children}
    </Anchor>
  );
}
