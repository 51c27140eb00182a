import { NavLink } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useInAppClick } from '../../components/ui/in-app-link.tsx';

type Props = {
  to: string;
  label: string;
  /** The icon's component, drawn here: an element made by the menu at each render would be a new prop. */
  icon: Icon;
  /** Made once by the caller (a constant element), for the same reason. */
  rightSection?: ReactNode;
  isActive: boolean;
  /** After a move inside the app (the phone menu closes). Stable: `useDisclosure`'s `close`. */
  onNavigate?: () => void;
};

/**
 * One link of the S14 menu: Mantine's `NavLink` as a link that moves through `InAppNavigation`. Memoised:
 * every move re-renders the menu, and only the two links whose `isActive` changed need drawing again
 * (all fifteen took 7–13 ms of the click on a list, in a profiling build).
 */
export const NavMenuLink = memo(function NavMenuLink({ to, label, icon: LinkIcon, rightSection, isActive, onNavigate }: Props) {
  const onClick = useInAppClick(to, onNavigate);
  return (
    <NavLink
      component="a"
      href={to}
      onClick={onClick}
      label={label}
      leftSection={<LinkIcon size={18} aria-hidden />}
      rightSection={rightSection}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
    />
  );
});
