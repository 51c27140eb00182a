import { Avatar, Group, Menu, Text, UnstyledButton, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconCheck, IconChevronDown, IconKey, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { APP_VERSION, LANGUAGES } from '@sf/contract/app-info';
import { changeLanguage } from '../../lib/i18n.ts';
import type { CurrentUser } from '../../lib/session.ts';

const SCHEMES: MantineColorScheme[] = ['light', 'dark', 'auto'];

export function UserMenu({
  user,
  onOpenProfile,
  onOpenPassword,
  onLogout,
}: {
  user: CurrentUser;
  onOpenProfile: () => void;
  onOpenPassword: () => void;
  onLogout: () => void;
}) {
  const { t, i18n } = useTranslation('layout');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const name = user.displayName || user.email;
  const check = (isOn: boolean) => (isOn ? <IconCheck size={16} aria-hidden /> : <span style={{ width: 16 }} />);
  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        {/* The name includes what the button shows (name and role), so speech users can say what they see. */}
        <UnstyledButton aria-label={`${t('header.userMenu', { name })} ${user.role ? t(`userMenu.role.${user.role}`) : ''}`.trim()} p={4}>
          <Group gap="xs" wrap="nowrap">
            {/* An icon, not initials: text in the button that its label does not contain fails WCAG 2.5.3. */}
            <Avatar radius="xl" size="sm" color="indigo" alt="" aria-hidden />
            <div style={{ lineHeight: 1.1 }}>
              <Text size="sm" fw={500} visibleFrom="xs" truncate maw={160}>
                {name}
              </Text>{' '}
              <Text size="xs" c="dimmed" visibleFrom="xs">
                {user.role ? t(`userMenu.role.${user.role}`) : ''}
              </Text>
            </div>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconUser size={16} aria-hidden />} onClick={onOpenProfile}>
          {t('userMenu.profile')}
        </Menu.Item>
        <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={onOpenPassword}>
          {t('userMenu.password')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>{t('userMenu.language')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            leftSection={check(i18n.language === language)}
            aria-current={i18n.language === language ? 'true' : undefined}
            onClick={() => void changeLanguage(language)}
          >
            {t(`common:language.${language}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label>{t('userMenu.theme')}</Menu.Label>
        {SCHEMES.map((scheme) => (
          <Menu.Item
            key={scheme}
            leftSection={check(colorScheme === scheme)}
            aria-current={colorScheme === scheme ? 'true' : undefined}
            onClick={() => setColorScheme(scheme)}
          >
            {t(`common:theme.${scheme}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={onLogout}>
          {t('userMenu.logout')}
        </Menu.Item>
        <Menu.Divider />
        <Text size="xs" c="dimmed" px="sm" py={4}>
          {t('userMenu.version', { version: APP_VERSION })}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
