import { NavLink } from '@mantine/core';
import type { ReactNode } from 'react';
import { useInAppClick } from '../../components/ui/in-app-link.tsx';

type Props = {
  to: string;
  label: string;
  icon: ReactNode;
  rightSection?: ReactNode;
  isActive: boolean;
  /** After a move inside the app (the phone menu closes). */
  onNavigate?: () => void;
};

/** One link of the S14 menu: Mantine's `NavLink` as a link that moves through `InAppNavigation`. */
export function NavMenuLink({ to, label, icon, rightSection, isActive, onNavigate }: Props) {
  const onClick = useInAppClick(to, onNavigate);
  return (
    <NavLink
      component="a"
      href={to}
      onClick={onClick}
      label={label}
      leftSection={icon}
      rightSection={rightSection}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
    />
  );
}
