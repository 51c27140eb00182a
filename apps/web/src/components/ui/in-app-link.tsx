import { Anchor, type AnchorProps } from '@mantine/core';
import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';

/**
 * How a link of the sign-in page moves inside the app. The router provides its `navigate`
 * (app/layouts/auth-area.tsx); the sign-in page opened first, before the router has loaded, provides
 * one that loads the app at that address (app/first-screen.tsx). Without a provider the link is a
 * plain page load. Keeping react-router out of the sign-in page is decision 010.
 */
export const InAppNavigation = createContext<((to: string) => void) | null>(null);

/** A Mantine `Anchor` that navigates in the app on a plain click (a new tab / window keeps the browser's way). */
export function InAppLink({ to, children, ...props }: AnchorProps & { to: string; children: ReactNode }) {
  const navigate = useContext(InAppNavigation);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <Anchor href={to} onClick={onClick} {...props}>
      {children}
    </Anchor>
  );
}
