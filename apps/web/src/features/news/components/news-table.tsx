import { Alert, Anchor, Group, Pagination, Select, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { IconChevronDown, IconChevronUp, IconPinFilled, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatters } from '../../../lib/format.ts';
import { useNewsPosts } from '../api/get-news-posts.ts';
import { PAGE_SIZES, type NewsListParams, type NewsSortField } from '../hooks/use-news-search-params.ts';
import { NewsStatusBadge } from './news-status-badge.tsx';

type Props = {
  params: NewsListParams;
  onChange: (patch: Partial<NewsListParams>, options?: { isReplace?: boolean }) => void;
  hrefFor: (post: number) => string;
};

const SKELETON_ROWS = 5;

function SortHeader({
  field,
  label,
  params,
  onChange,
}: {
  field: NewsSortField;
  label: string;
  params: NewsListParams;
  onChange: Props['onChange'];
}) {
  const { t } = useTranslation('news');
  const isActive = params.sort === field;
  const Icon = !isActive ? IconSelector : params.order === 'asc' ? IconChevronUp : IconChevronDown;
  const nextOrder = isActive && params.order === 'asc' ? 'desc' : isActive ? 'asc' : field === 'title' ? 'asc' : 'desc';
  return (
    <Table.Th aria-sort={isActive ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => onChange({ sort: field, order: nextOrder })}
        aria-label={t('list.sortBy', { column: label })}
        style={{ fontWeight: 700 }}
      >
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function PostRow({ post, hrefFor }: { post: NewsPost; hrefFor: Props['hrefFor'] }) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  return (
    <Table.Tr>
      <Table.Td>
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
      </Table.Td>
      <Table.Td style={{ minWidth: 130 }}>
        <NewsStatusBadge status={post.status} />
      </Table.Td>
      <Table.Td>{post.publishAt ? format.dateTime(post.publishAt) : '—'}</Table.Td>
      <Table.Td>{format.dateTime(post.updatedAt)}</Table.Td>
      <Table.Td>{post.author.displayName}</Table.Td>
    </Table.Tr>
  );
}

export function NewsTable({ params, onChange, hrefFor }: Props) {
  const { t } = useTranslation('news');
  const format = useFormatters();
  const query = useNewsPosts({
    ...(params.q ? { q: params.q } : {}),
    ...(params.status ? { status: params.status } : {}),
    sort: params.sort,
    order: params.order,
    page: params.page,
    pageSize: params.pageSize,
  });
  const page = query.data;
  const pageCount = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;

  if (query.isError && !page) {
    return (
      <Alert color="red" title={t('list.errorTitle')}>
        {t('list.errorText')}
      </Alert>
    );
  }

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="sm" aria-busy={query.isFetching}>
          <Table.Caption>{t('list.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <SortHeader field="title" label={t('list.columns.title')} params={params} onChange={onChange} />
              <SortHeader field="status" label={t('list.columns.status')} params={params} onChange={onChange} />
              <SortHeader field="publishAt" label={t('list.columns.publishAt')} params={params} onChange={onChange} />
              <SortHeader field="updatedAt" label={t('list.columns.updatedAt')} params={params} onChange={onChange} />
              <Table.Th>{t('list.columns.author')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!page &&
              Array.from({ length: SKELETON_ROWS }, (_, row) => (
                <Table.Tr key={row} data-testid="news-row-skeleton">
                  {Array.from({ length: 5 }, (_, cell) => (
                    <Table.Td key={cell}>
                      <Skeleton height={14} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            {page?.items.map((post) => <PostRow key={post.id} post={post} hrefFor={hrefFor} />)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page && page.items.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {params.q || params.status ? t('list.emptyFiltered') : t('list.empty')}
        </Text>
      )}
      {page && page.total > 0 && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('list.range', {
              from: format.number((page.page - 1) * page.pageSize + 1),
              to: format.number(Math.min(page.page * page.pageSize, page.total)),
              total: format.number(page.total),
            })}
          </Text>
          <Group gap="sm" wrap="wrap">
            <Select
              label={t('list.pageSize')}
              data={PAGE_SIZES.map((size) => String(size))}
              value={String(params.pageSize)}
              onChange={(value) => value && onChange({ pageSize: Number(value) })}
              allowDeselect={false}
              w={100}
              size="xs"
            />
            <Pagination
              total={pageCount}
              value={Math.min(params.page, pageCount)}
              onChange={(value) => onChange({ page: value })}
              getItemProps={(value) => ({ 'aria-label': t('list.page', { page: value }) })}
              getControlProps={(control) => ({ 'aria-label': t(`list.pager.${control}`) })}
              size="sm"
              aria-label={t('list.pagination')}
            />
          </Group>
        </Group>
      )}
    </Stack>
  );
}
