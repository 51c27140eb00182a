import '../full-styles.ts';
import { Anchor, AppShell, Box, Burger, Button, em, Group, Loader, Menu, NavLink, Text } from '@mantine/core';
import { IconBolt, IconChevronDown } from '@tabler/icons-react';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useMatches, useNavigate, useNavigation } from 'react-router';
import { APP_VERSION } from '@sf/contract/app-info';
import { useSignOut } from '../../features/auth/api/sign-out.ts';
import { useScreenTitle } from '../../lib/document-title.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useMountedOnceOpened } from '../../hooks/use-mounted-once-opened.ts';
import classes from './main-layout.module.css';
import { AppDataProviders } from '../data-providers.tsx';
import { visibleActions, visibleMenu, type MenuLink } from '../navigation.tsx';
import { SCREENS, type ScreenHandle, type ScreenId } from '../screens.ts';
import { PendingStaffBadge } from '../../features/staff/components/pending-staff-badge.tsx';
import { RouterNavigation } from './router-navigation.tsx';
import { NavMenuLink } from './nav-menu-link.tsx';

// The ledger dialogs (with their programs/merchants lookups) load the first time an action is chosen.
const LedgerActionDialog = lazy(() => import('../ledger-actions.tsx').then((module) => ({ default: module.LedgerActionDialog })));
const RewardActionDialog = lazy(() => import('../ledger-actions.tsx').then((module) => ({ default: module.RewardActionDialog })));

// So do the profile and password dialogs (their forms and schemas), the first time one is opened.
const ProfileDialog = lazy(() => import('../../features/profile/components/profile-dialog.tsx').then((module) => ({ default: module.ProfileDialog })));
const PasswordDialog = lazy(() => import('../../features/profile/components/password-dialog.tsx').then((module) => ({ default: module.PasswordDialog })));

/** "Social Fidelity" → "SF". */
const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((word) => word.charAt(0))
    .join('');

type LedgerKind = 'purchase' | 'redeem' | 'adjust' | 'redeemReward';

/** S14 Actions: the header menu, from any screen, built for the role from the registry. */
function ActionsMenu({ onAction }: { onAction: (kind: LedgerKind) => void }) {
  const { t } = useTranslation('layout');
  const user = useCurrentUser();
  const actions = visibleActions(user?.role);
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="light" size="sm" leftSection={<IconBolt size={16} aria-hidden />} rightSection={<IconChevronDown size={14} aria-hidden />}>
          {t('nav.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) =>
          action.kind === 'link' ? (
            <Menu.Item key={action.id} component={Link} to={action.to}>
              {t(action.label)}
            </Menu.Item>
          ) : (
            <Menu.Item key={action.id} onClick={() => onAction(action.id)}>
              {t(action.label)}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
import { UserMenu } from './user-menu.tsx';

// One element for every render of the menu, so that the memoised link that shows it is not drawn again.
const pendingStaffBadge = <PendingStaffBadge />;

/** The S14 menu, built from the screen registry (`app/navigation.tsx`) for the current role. */
function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation('layout');
  const location = useLocation();
  const user = useCurrentUser();
  const items = visibleMenu(user?.role);
  const renderLink = (entry: MenuLink) => (
    <NavMenuLink
      key={entry.id}
      to={entry.to}
      label={t(entry.label)}
      icon={entry.icon}
      {...(entry.badge === 'pendingStaff' ? { rightSection: pendingStaffBadge } : {})}
      isActive={entry.isActive(location)}
      onNavigate={onNavigate}
    />
  );
  return (
    <nav aria-label={t('nav.label')}>
      {items.map((item) =>
        item.kind === 'link' ? (
          renderLink(item)
        ) : (
          <NavLink key={item.id} label={t(item.label)} leftSection={<item.icon size={18} aria-hidden />} defaultOpened childrenOffset={28}>
            {item.entries.map(renderLink)}
          </NavLink>
        ),
      )}
    </nav>
  );
}

/** True when the screen's address (`?customer=new&…`) opens one of its drawers or dialogs (`drawers`, app/screens.ts). */
function opensDrawer(screenId: ScreenId | undefined, search: string): boolean {
  const screen = screenId ? SCREENS[screenId] : undefined;
  if (!screen || !('drawers' in screen)) return false;
  const params = new URLSearchParams(search);
  return screen.drawers.some((name: string) => params.has(name));
}

/**
 * After a move to another page the focus goes to that page's heading (or, while it has none, to the main
 * landmark), so the next Tab reaches the page's first control: it stayed on the menu's link (nineteen Tabs
 * to Clienti's search) or, the list row that was followed being gone, on the page's body. Not on the first
 * load, not when only the address's query changes (a list's filters), not when the new page opens on a
 * drawer or dialog (`?customer=new` from Azioni: it focuses its own first field, and gives the focus back
 * to Azioni on Esc), and never out of a dialog. An effect and a ref: nothing drawn again.
 *
 * Whether the address opens a drawer is read from the screen registry, not from the DOM nor from the pages
 * drawn so far: when this effect runs the drawer may not be there yet (its form loads lazily the first time),
 * and a heading focused first becomes what Esc on the drawer gives the focus back to (lib/dialog-focus.ts)
 * instead of Azioni.
 */
function FocusOnNewPage({ screenId }: { screenId: ScreenId | undefined }) {
  const { pathname, search } = useLocation();
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (opensDrawer(screenId, search) || document.activeElement?.closest('[role="dialog"]')) return;
    const main = document.getElementById('main-content');
    const heading = main?.querySelector('h1');
    // Focusable by script only, never a Tab stop; no ring is drawn on it (main-layout.module.css).
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    (heading ?? main)?.focus({ preventScroll: true });
  }, [pathname, search, screenId]);
  return null;
}

export function Component() {
  return (
    <AppDataProviders>
      <MainLayout />
    </AppDataProviders>
  );
}

function MainLayout() {
  const { t } = useTranslation('layout');
  const [isNavOpen, nav] = useDisclosure(false);
  // Below the `sm` breakpoint (48em, where AppShell collapses the navbar) a closed menu only slides
  // off screen: keep its links out of the Tab order and away from screen readers.
  // Read at the first render, not in an effect (Mantine's default, for server rendering we do not do): the
  // effect's answer re-rendered the whole signed-in shell right after its first commit.
  const isPhone = useMediaQuery(`(max-width: ${em(767.98)})`, undefined, { getInitialValueInEffect: false }) ?? false;
  const isNavHidden = isPhone && !isNavOpen;
  const [dialog, setDialog] = useState<'profile' | 'password' | null>(null);
  const [ledgerDialog, setLedgerDialog] = useState<LedgerKind | null>(null);
  const [hasLedgerDialog, setHasLedgerDialog] = useState(false);
  const hasProfileDialog = useMountedOnceOpened(dialog === 'profile');
  const hasPasswordDialog = useMountedOnceOpened(dialog === 'password');
  const user = useCurrentUser();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  // The tab names the screen as its menu entry does (a record's page adds the record's name).
  const screenId = useMatches()
    .map((match) => (match.handle as Partial<ScreenHandle> | undefined)?.screen)
    .findLast((id) => id !== undefined);
  useScreenTitle(screenId ? t(`nav.${screenId}`) : '');
  if (!user) return null;

  return (
    <RouterNavigation>
      <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }} padding="md">
        <a href="#main-content" className={classes.skipLink}>
          {t('common:skipToContent')}
        </a>
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={isNavOpen} onClick={nav.toggle} hiddenFrom="sm" size="sm" aria-label={t('header.toggleMenu')} aria-expanded={isNavOpen} aria-controls="main-navbar" />
              {/*
               * On a phone the name's initials ("SF"): "Social Fidelity" took two lines beside the actions and
               * the account menu, and on one line it pushed them off the screen even at 13 px. The link is
               * named by what it shows (a speech user says "SF"); `abbr` gives the whole name on hover.
               */}
              <Anchor component={Link} to="/" fw={700} fz="lg" c="var(--mantine-color-text)" underline="never" style={{ whiteSpace: 'nowrap' }}>
                <Box component="abbr" hiddenFrom="xs" title={t('common:appName')} style={{ textDecoration: 'none' }}>
                  {initials(t('common:appName'))}
                </Box>
                <Box component="span" visibleFrom="xs">
                  {t('common:appName')}
                </Box>
              </Anchor>
              {navigation.state === 'loading' ? <Loader size="xs" role="status" aria-label={t('header.loading')} /> : null}
            </Group>
            <Group gap="sm" wrap="nowrap">
              <ActionsMenu
                onAction={(kind) => {
                  setHasLedgerDialog(true);
                  setLedgerDialog(kind);
                }}
              />
              <Text size="xs" c="dimmed" visibleFrom="md">
                {APP_VERSION}
              </Text>
              <UserMenu
                user={user}
                onOpenProfile={() => setDialog('profile')}
                onOpenPassword={() => setDialog('password')}
                onLogout={() => {
                  void signOut().then(() => navigate('/auth/login', { replace: true }));
                }}
              />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar id="main-navbar" p="xs" inert={isNavHidden}>
          <AppShell.Section grow className={classes.navScroll}>
            <Navigation onNavigate={nav.close} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
          <Outlet />
        </AppShell.Main>
        <FocusOnNewPage screenId={screenId} />
        <Suspense fallback={null}>
          {hasProfileDialog ? <ProfileDialog isOpen={dialog === 'profile'} onClose={() => setDialog(null)} /> : null}
          {hasPasswordDialog ? <PasswordDialog isOpen={dialog === 'password'} onClose={() => setDialog(null)} /> : null}
        </Suspense>
        {hasLedgerDialog ? (
          <Suspense fallback={null}>
            <LedgerActionDialog kind={ledgerDialog === 'redeemReward' ? null : ledgerDialog} onClose={() => setLedgerDialog(null)} />
            <RewardActionDialog isOpen={ledgerDialog === 'redeemReward'} onClose={() => setLedgerDialog(null)} />
          </Suspense>
        ) : null}
      </AppShell>
    </RouterNavigation>
  );
}
