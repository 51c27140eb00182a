import { Button, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { useEditorTarget, useNewsListParams } from '../hooks/use-news-search-params.ts';
import { NewsEditorDrawer } from './news-editor-drawer.tsx';
import { NewsListToolbar } from './news-list-toolbar.tsx';
import { NewsTable } from './news-table.tsx';

/** The News area at `/news` (S9: an editor's whole world): the list and the editor drawer. */
export function NewsPage() {
  const { t } = useTranslation('news');
  const { params, update, isFiltered } = useNewsListParams();
  const { hrefFor } = useEditorTarget();
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Can permission="news:write">
          <Button component={Link} to={hrefFor('new')} state={{ isEditorPushed: true }} leftSection={<IconPlus size={16} aria-hidden />}>
            {t('list.create')}
          </Button>
        </Can>
      </Group>
      <NewsListToolbar params={params} onChange={update} />
      <NewsTable params={params} onChange={update} isFiltered={isFiltered} hrefFor={hrefFor} />
      <NewsEditorDrawer />
    </Stack>
  );
}
