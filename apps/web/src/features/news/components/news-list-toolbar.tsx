import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { NEWS_STATUSES, type NewsStatus } from '@sf/contract/news';
import { BOUNDS } from '@sf/contract/validation';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NewsListParams } from '../hooks/use-news-search-params.ts';

type Props = {
  params: NewsListParams;
  onChange: (patch: Partial<NewsListParams>, options?: { isReplace?: boolean }) => void;
};

const SEARCH_DELAY_MS = 300;

export function NewsListToolbar({ params, onChange }: Props) {
  const { t } = useTranslation('news');
  const [search, setSearch] = useState(params.q);
  const [debounced] = useDebouncedValue(search, SEARCH_DELAY_MS);

  // Back/forward or a shared link can change q under the field: follow it.
  useEffect(() => setSearch(params.q), [params.q]);

  useEffect(() => {
    const trimmed = debounced.trim();
    // Each keystroke must not become a history entry: the search replaces the current one.
    if (trimmed !== params.q) onChange({ q: trimmed }, { isReplace: true });
    // Only the settled text drives the URL; params.q is read here, not watched.
  }, [debounced]);

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        type="search"
        label={t('list.search')}
        placeholder={t('list.searchPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        maxLength={BOUNDS.searchMax}
        onChange={(event) => setSearch(event.currentTarget.value)}
        style={{ flex: '1 1 16rem' }}
      />
      <Select
        label={t('list.statusFilter')}
        data={[
          { value: 'all', label: t('list.allStatuses') },
          ...NEWS_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
        ]}
        value={params.status ?? 'all'}
        onChange={(value) => onChange({ status: value && value !== 'all' ? (value as NewsStatus) : undefined })}
        allowDeselect={false}
        style={{ flex: '0 1 12rem' }}
      />
    </Group>
  );
}
