import '../full-styles.ts';
import { Anchor, AppShell, Burger, em, Group, Loader, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconApps, IconLayoutDashboard, IconNews, IconSquarePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { APP_VERSION } from '@sf/contract/app-info';
import { useCan } from '../../components/can.tsx';
import { useSignOut } from '../../features/auth/api/sign-out.ts';
import { PasswordDialog } from '../../features/profile/components/password-dialog.tsx';
import { ProfileDialog } from '../../features/profile/components/profile-dialog.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import classes from './main-layout.module.css';
import { AppDataProviders } from '../data-providers.tsx';
import { UserMenu } from './user-menu.tsx';

/**
 * The S14 menu, showing only entries whose screens exist today (Dashboard; Apps → News; Create New
 * Post). Anagrafiche, Pages, Features and Actions join when their areas land — never as empty pages.
 */
function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const canSeeDashboard = useCan('dashboard:read');
  const canSeeNews = useCan('news:read');
  const canWriteNews = useCan('news:write');
  const isCreating = pathname === '/news' && params.get('post') === 'new';
  const isNews = pathname === '/news' && !isCreating;
  return (
    <nav aria-label={t('nav.label')}>
      {canSeeDashboard ? (
        <NavLink
          component={Link}
          to="/dashboard"
          label={t('nav.dashboard')}
          leftSection={<IconLayoutDashboard size={18} aria-hidden />}
          active={pathname === '/dashboard'}
          aria-current={pathname === '/dashboard' ? 'page' : undefined}
          onClick={onNavigate}
        />
      ) : null}
      {canSeeNews ? (
        <NavLink label={t('nav.apps')} leftSection={<IconApps size={18} aria-hidden />} defaultOpened childrenOffset={28}>
          <NavLink
            component={Link}
            to="/news"
            label={t('nav.news')}
            leftSection={<IconNews size={18} aria-hidden />}
            active={isNews}
            aria-current={isNews ? 'page' : undefined}
            onClick={onNavigate}
          />
        </NavLink>
      ) : null}
      {canWriteNews ? (
        <NavLink
          component={Link}
          to="/news?post=new"
          label={t('nav.createPost')}
          leftSection={<IconSquarePlus size={18} aria-hidden />}
          active={isCreating}
          aria-current={isCreating ? 'page' : undefined}
          onClick={onNavigate}
        />
      ) : null}
    </nav>
  );
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
  const isPhone = useMediaQuery(`(max-width: ${em(767.98)})`) ?? false;
  const isNavHidden = isPhone && !isNavOpen;
  const [dialog, setDialog] = useState<'profile' | 'password' | null>(null);
  const user = useCurrentUser();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  if (!user) return null;

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }} padding="md">
      <a href="#main-content" className={classes.skipLink}>
        {t('common:skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={isNavOpen} onClick={nav.toggle} hiddenFrom="sm" size="sm" aria-label={t('header.toggleMenu')} aria-expanded={isNavOpen} aria-controls="main-navbar" />
            <Anchor component={Link} to="/" fw={700} fz="lg" c="var(--mantine-color-text)" underline="never">
              {t('common:appName')}
            </Anchor>
            {navigation.state === 'loading' ? <Loader size="xs" aria-label={t('header.loading')} /> : null}
          </Group>
          <Group gap="sm" wrap="nowrap">
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
        <AppShell.Section grow component={ScrollArea}>
          <Navigation onNavigate={nav.close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
        <Outlet />
      </AppShell.Main>
      <ProfileDialog isOpen={dialog === 'profile'} onClose={() => setDialog(null)} />
      <PasswordDialog isOpen={dialog === 'password'} onClose={() => setDialog(null)} />
    </AppShell>
  );
}
