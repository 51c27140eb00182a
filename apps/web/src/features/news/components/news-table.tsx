import { Anchor, Group, Text } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { IconPinFilled } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { toApiQuery } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useNewsPosts } from '../api/get-news-posts.ts';
import type { NewsListParams, NewsListUpdate } from '../hooks/use-news-search-params.ts';
import { NewsStatusBadge } from './news-status-badge.tsx';

type Props = {
  params: NewsListParams;
  onChange: NewsListUpdate;
  isFiltered: boolean;
  hrefFor: (post: number) => string;
};

const getRowId = (post: NewsPost) => String(post.id);

export function NewsTable({ params, onChange, isFiltered, hrefFor }: Props) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const query = useNewsPosts(toApiQuery(params));

  const columns = useMemo<DataTableColumn<NewsPost, NewsListParams['sort']>[]>(
    () => [
      {
        id: 'title',
        header: t('list.columns.title'),
        sortField: 'title',
        firstOrder: 'asc',
        cell: (post) => (
          <>
            <Group gap={6} wrap="nowrap">
              {post.pinned && <IconPinFilled size={14} aria-label={t('list.pinned')} role="img" />}
              <Anchor component={Link} to={hrefFor(post.id)} state={{ isEditorPushed: true }} fw={500}>
                {post.title}
              </Anchor>
            </Group>
            {post.summary && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {post.summary}
              </Text>
            )}
          </>
        ),
      },
      { id: 'status', header: t('list.columns.status'), sortField: 'status', minWidth: 130, cell: (post) => <NewsStatusBadge status={post.status} /> },
      { id: 'publishAt', header: t('list.columns.publishAt'), sortField: 'publishAt', cell: (post) => (post.publishAt ? format.dateTime(post.publishAt) : '—') },
      { id: 'updatedAt', header: t('list.columns.updatedAt'), sortField: 'updatedAt', cell: (post) => format.dateTime(post.updatedAt) },
      { id: 'author', header: t('list.columns.author'), cell: (post) => post.author.displayName },
    ],
    [t, format, hrefFor],
  );

  return (
    <DataTable
      caption={t('list.caption')}
      columns={columns}
      query={query}
      params={params}
      onChange={onChange}
      getRowId={getRowId}
      emptyText={t('list.empty')}
      emptyFilteredText={t('list.emptyFiltered')}
      isFiltered={isFiltered}
      errorTitle={t('list.errorTitle')}
    />
  );
}
