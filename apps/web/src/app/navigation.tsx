import {
  IconAddressBook,
  IconArrowsExchange,
  IconApps,
  IconBuildingStore,
  IconFiles,
  IconGift,
  IconFileImport,
  IconShieldLock,
  IconHistory,
  IconKey,
  IconMail,
  IconLayoutDashboard,
  IconNews,
  IconPuzzle,
  IconSquarePlus,
  IconStars,
  IconThumbUp,
  IconUsers,
  IconUserShield,
  type Icon,
} from '@tabler/icons-react';
import { can, type Permission } from '@sf/contract/roles';
import { SCREENS, type ScreenId } from './screens.ts';

export type MenuLocation = { pathname: string; search: string };

export type MenuLink = {
  kind: 'link';
  id: string;
  /** Key in the `layout` namespace. */
  label: string;
  icon: Icon;
  to: string;
  permission: Permission;
  isActive: (location: MenuLocation) => boolean;
  /** A count shown beside the label (the main layout renders it). */
  badge?: 'pendingStaff';
};

export type MenuGroup = { kind: 'group'; id: string; label: string; icon: Icon; entries: MenuLink[] };

export type MenuItem = MenuLink | MenuGroup;

const isCreatingPost = ({ pathname, search }: MenuLocation) => pathname === SCREENS.news.path && new URLSearchParams(search).get('post') === 'new';

function screenLink(id: ScreenId, label: string, icon: Icon): MenuLink {
  const { path, permission } = SCREENS[id];
  return {
    kind: 'link',
    id,
    label,
    icon,
    to: path,
    permission,
    // A screen's own sub-pages (a customer's page under /customers) keep its entry lit.
    isActive: (location) => (location.pathname === path || location.pathname.startsWith(`${path}/`)) && !(id === 'news' && isCreatingPost(location)),
  };
}

/**
 * The S14 menu in its order: Dashboard, Anagrafiche, Pages, Features, Apps, (Actions is the header's
 * menu), Create New Post. A group lists only entries whose screens exist; `visibleMenu` drops what
 * the role may not use and every group left empty, so no entry ever leads to an empty page.
 */
export const MENU: MenuItem[] = [
  screenLink('dashboard', 'nav.dashboard', IconLayoutDashboard),
  {
    kind: 'group',
    id: 'anagrafiche',
    label: 'nav.anagrafiche',
    icon: IconAddressBook,
    entries: [
      screenLink('customers', 'nav.customers', IconUsers),
      screenLink('merchants', 'nav.merchants', IconBuildingStore),
      { ...screenLink('staff', 'nav.staff', IconUserShield), badge: 'pendingStaff' },
    ],
  },
  {
    kind: 'group',
    id: 'pages',
    label: 'nav.pages',
    icon: IconFiles,
    entries: [
      screenLink('audit', 'nav.audit', IconHistory),
      screenLink('privacyRequests', 'nav.privacyRequests', IconShieldLock),
      screenLink('imports', 'nav.imports', IconFileImport),
      screenLink('apiKeys', 'nav.apiKeys', IconKey),
    ],
  },
  { kind: 'group', id: 'features', label: 'nav.features', icon: IconPuzzle, entries: [screenLink('programs', 'nav.programs', IconStars), screenLink('ledger', 'nav.ledger', IconArrowsExchange), screenLink('rewards', 'nav.rewards', IconGift)] },
  { kind: 'group', id: 'apps', label: 'nav.apps', icon: IconApps, entries: [screenLink('news', 'nav.news', IconNews), screenLink('approvals', 'nav.approvals', IconThumbUp), screenLink('campaigns', 'nav.campaigns', IconMail)] },
  {
    kind: 'link',
    id: 'createPost',
    label: 'nav.createPost',
    icon: IconSquarePlus,
    to: `${SCREENS.news.path}?post=new`,
    permission: 'news:write',
    isActive: isCreatingPost,
  },
];

/** The menu as a role sees it: entries it may use, groups with at least one of them. */
export function visibleMenu(role: string | null | undefined, menu: MenuItem[] = MENU): MenuItem[] {
  return menu.flatMap((item): MenuItem[] => {
    if (item.kind === 'link') return can(role, item.permission) ? [item] : [];
    const entries = item.entries.filter((entry) => can(role, entry.permission));
    return entries.length > 0 ? [{ ...item, entries }] : [];
  });
}

/**
 * The header's Actions menu (S14 "Actions", docs/product.md C): ledger dialogs open over any screen, the
 * "new" entries go to their screen's form. Built for the role like the menu.
 */
export type HeaderAction =
  | { id: 'purchase' | 'redeem' | 'adjust' | 'redeemReward'; kind: 'dialog'; label: string; permission: Permission }
  | { id: 'newCustomer' | 'newMerchant' | 'importCustomers'; kind: 'link'; label: string; permission: Permission; to: string };

export const HEADER_ACTIONS: HeaderAction[] = [
  { id: 'purchase', kind: 'dialog', label: 'ledger:actions.purchase', permission: 'ledger:write' },
  { id: 'redeem', kind: 'dialog', label: 'ledger:actions.redeem', permission: 'ledger:write' },
  { id: 'adjust', kind: 'dialog', label: 'ledger:actions.adjust', permission: 'points:adjust' },
  { id: 'redeemReward', kind: 'dialog', label: 'rewards:actions.redeemReward', permission: 'rewards:redeem' },
  { id: 'newCustomer', kind: 'link', label: 'ledger:actions.newCustomer', permission: 'customers:write', to: `${SCREENS.customers.path}?customer=new` },
  { id: 'newMerchant', kind: 'link', label: 'ledger:actions.newMerchant', permission: 'merchants:write', to: `${SCREENS.merchants.path}?merchant=new` },
  { id: 'importCustomers', kind: 'link', label: 'imports:actions.importCustomers', permission: 'imports:write', to: `${SCREENS.imports.path}?import=new` },
];

export function visibleActions(role: string | null | undefined): HeaderAction[] {
  return HEADER_ACTIONS.filter((action) => can(role, action.permission));
}
