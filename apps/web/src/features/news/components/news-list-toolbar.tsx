import { Group, Select } from '@mantine/core';
import { NEWS_STATUSES, type NewsStatus } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import type { NewsListParams, NewsListUpdate } from '../hooks/use-news-search-params.ts';

type Props = {
  params: NewsListParams;
  onChange: NewsListUpdate;
};

export function NewsListToolbar({ params, onChange }: Props) {
  const { t } = useTranslation('news');
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      {/* Each keystroke must not become a history entry: the search replaces the current one. */}
      <ListSearchInput value={params.q} onSearch={(q) => onChange({ q }, { isReplace: true })} placeholder={t('list.searchPlaceholder')} />
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
