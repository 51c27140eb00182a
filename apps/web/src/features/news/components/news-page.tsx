import { Anchor, Group, Text } from '@mantine/core';
import { NEWS_STATUSES, listNewsQuerySchema, type NewsPost } from '@sf/contract/news';
import { IconPinFilled } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { NEWS_PATH, useNewsPosts } from '../api/get-news-posts.ts';
import { useEditorTarget } from '../hooks/use-news-search-params.ts';
import { NewsEditorDrawer } from './news-editor-drawer.tsx';
import { NewsStatusBadge } from './news-status-badge.tsx';

type SortField = ListParams<typeof listNewsQuerySchema>['sort'];

const getRowId = (post: NewsPost) => String(post.id);

/** Opening the drawer from the list marks its history entry, so closing it goes back (`useEditorTarget`). */
const EDITOR_PUSHED = { isEditorPushed: true };

/**
 * The News area at `/news` (S9: an editor's whole world), a list of the kit (docs/decisions/013):
 * search in title and summary, the (effective) status filter, sortable columns, the CSV export with
 * the same filters, "Nuovo post" for the roles that write News, and the editor drawer (`?post=`).
 */
export function NewsPage() {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const list = useList(listNewsQuerySchema, useNewsPosts);
  const { hrefFor } = useEditorTarget();

  const columns = useMemo<DataTableColumn<NewsPost, SortField>[]>(
    () => [
      {
        id: 'title',
        isName: true,
        header: t('list.columns.title'),
        sortField: 'title',
        firstOrder: 'asc',
        cell: (post) => (
          <>
            <Group gap={6} wrap="nowrap">
              {post.pinned && <IconPinFilled size={14} aria-label={t('list.pinned')} role="img" />}
              <Anchor component={Link} to={hrefFor(post.id)} state={EDITOR_PUSHED} fw={500}>
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
    <ListPage
      list={list}
      texts={{
        title: t('title'),
        caption: t('list.caption'),
        empty: t('list.empty'),
        emptyFiltered: t('list.emptyFiltered'),
        errorTitle: t('list.errorTitle'),
        searchPlaceholder: t('list.searchPlaceholder'),
      }}
      exportPath={NEWS_PATH}
      create={{ permission: 'news:write', href: hrefFor('new'), state: EDITOR_PUSHED, label: t('list.create') }}
      filters={[
        {
          type: 'select',
          field: 'status',
          label: t('list.statusFilter'),
          allLabel: t('list.allStatuses'),
          options: NEWS_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
          width: 192,
        },
      ]}
      columns={columns}
      getRowId={getRowId}
    >
      <NewsEditorDrawer />
    </ListPage>
  );
}
