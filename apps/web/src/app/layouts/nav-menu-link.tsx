import { NavLink, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { useInAppClick } from '../../components/ui/in-app-link.tsx';

/**
 * One link of the S14 menu: the markup Mantine's `NavLink` renders for a link (`component={Link}`),
 * written as plain elements with its classes and data attributes. Mantine's component (its props, theme
 * styles, Box and the router's `Link`) costs far more than the link it draws, and the menu draws up to
 * fifteen of them in every signed-in screen's first render (decision 010, sixth pass). A test compares
 * the two. The groups stay Mantine's `NavLink` (they open and close). Moves through `InAppNavigation`.
 */
const ROOT_CLASS = `mantine-focus-auto ${NavLink.classes.root} mantine-NavLink-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`;
const SECTION_CLASS = `${NavLink.classes.section} mantine-NavLink-section`;
const BODY_CLASS = `${NavLink.classes.body} mantine-NavLink-body`;
const LABEL_CLASS = `${NavLink.classes.label} mantine-NavLink-label`;
const DESCRIPTION_CLASS = `${NavLink.classes.description} mantine-NavLink-description`;

type Props = {
  to: string;
  label: string;
  icon: ReactNode;
  rightSection?: ReactNode;
  isActive: boolean;
  /** After a move inside the app (the phone menu closes). */
  onNavigate?: () => void;
};

export function NavMenuLink({ to, label, icon, rightSection, isActive, onNavigate }: Props) {
  const onClick = useInAppClick(to, onNavigate);
  return (
    <a className={ROOT_CLASS} data-active={isActive || undefined} aria-current={isActive ? 'page' : undefined} href={to} onClick={onClick}>
      <span className={SECTION_CLASS} data-position="left">
        {icon}
      </span>
      <div className={BODY_CLASS}>
        <span className={LABEL_CLASS}>{label}</span>
        <span className={DESCRIPTION_CLASS} data-active={isActive || undefined} />
      </div>
      {rightSection !== undefined ? (
        <span className={SECTION_CLASS} data-position="right">
          {rightSection}
        </span>
      ) : null}
    </a>
  );
}
