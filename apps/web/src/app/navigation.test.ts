import { IconNews } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { MENU, visibleMenu, type MenuItem } from './navigation.tsx';

const ids = (items: MenuItem[]) => items.map((item) => (item.kind === 'link' ? item.id : `${item.id}[${item.entries.map((entry) => entry.id).join(',')}]`));

describe('menu registry (S14)', () => {
  it('shows an editor only News and Create New Post', () => {
    expect(ids(visibleMenu('editor'))).toEqual(['apps[news]', 'createPost']);
  });

  it('shows an admin every group that has a working entry, in the S14 order', () => {
    const admin = ids(visibleMenu('admin'));
    expect(admin[0]).toBe('dashboard');
    expect(admin.at(-1)).toBe('createPost');
    expect(admin).toContain('apps[news,approvals,campaigns]');
    expect(admin).toContain('features[programs,ledger,rewards]');
  });

  it('drops a group with no entry the role may use, and shows nothing to a role that may not sign in', () => {
    const menu: MenuItem[] = [
      ...MENU,
      {
        kind: 'group',
        id: 'staffOnly',
        label: 'nav.pages',
        icon: IconNews,
        entries: [{ kind: 'link', id: 'staff', label: 'x', icon: IconNews, to: '/staff', permission: 'staff:manage', isActive: () => false }],
      },
    ];
    expect(ids(visibleMenu('editor', menu))).not.toContain('staffOnly[staff]');
    expect(ids(visibleMenu('admin', menu))).toContain('staffOnly[staff]');
    // Pages holds only admin screens: an admin sees all four, an editor not the group at all.
    expect(ids(visibleMenu('admin', menu))).toContain('pages[audit,privacyRequests,imports,apiKeys]');
    expect(ids(visibleMenu('editor', menu)).some((id) => id.startsWith('pages'))).toBe(false);
    expect(visibleMenu('member')).toEqual([]);
    expect(visibleMenu(null)).toEqual([]);
  });
});
