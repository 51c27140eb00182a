import { Anchor, Button, Drawer, Group, Select, Stack, Title } from '@mantine/core';
import { IMPORT_KINDS, IMPORT_STATUSES, listImportsQuerySchema, type Import } from '@sf/contract/imports';
import { IconFileImport } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { toApiQuery, useListParams, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useImports } from '../api/get-imports.ts';
import { ImportDetailView, ImportStatusBadge } from './import-detail.tsx';
import { ImportWizard } from './import-wizard.tsx';

type SortField = ListParams<typeof listImportsQuerySchema>['sort'];

/** `/imports` — Pages → Importazioni: the imports and their reports; `?import=new` opens the wizard. */
export function ImportsPage({ programOptions }: { programOptions: { value: string; label: string }[] }) {
  const { t } = useTranslation('imports');
  const format = useFormatters();
  const { params, update, isFiltered } = useListParams(listImportsQuerySchema);
  const drawer = useDrawerParam('import');
  const query = useImports(toApiQuery(params));

  const columns = useMemo<DataTableColumn<Import, SortField>[]>(
    () => [
      {
        id: 'fileName',
        header: t('columns.fileName'),
        sortField: 'fileName',
        firstOrder: 'asc',
        cell: (item) => (
          <Anchor component={Link} to={drawer.hrefFor(item.id)} fw={500}>
            {item.fileName}
          </Anchor>
        ),
      },
      { id: 'kind', header: t('columns.kind'), sortField: 'kind', firstOrder: 'asc', cell: (item) => t(`kind.${item.kind}`) },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (item) => <ImportStatusBadge status={item.status} /> },
      { id: 'rows', header: t('columns.rows'), isNumeric: true, cell: (item) => format.number(item.totalRows) },
      { id: 'imported', header: t('columns.imported'), isNumeric: true, cell: (item) => format.number(item.importedRows) },
      { id: 'errors', header: t('columns.errors'), isNumeric: true, cell: (item) => format.number(item.errorRows) },
      { id: 'progress', header: t('columns.progress'), isNumeric: true, cell: (item) => `${item.progress}%` },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (item) => format.dateTime(item.createdAt) },
      { id: 'createdBy', header: t('columns.createdBy'), cell: (item) => item.createdBy ?? '—' },
    ],
    [t, format, drawer],
  );

  const isNew = drawer.target === 'new';
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Can permission="imports:write">
          <Button component={Link} to={drawer.hrefFor('new')} leftSection={<IconFileImport size={16} aria-hidden />}>
            {t('create')}
          </Button>
        </Can>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <ListSearchInput value={params.q} onSearch={(q) => update({ q }, { isReplace: true })} placeholder={t('searchPlaceholder')} />
        <Select
          label={t('filters.kind')}
          data={[{ value: 'all', label: t('filters.allKinds') }, ...IMPORT_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))]}
          value={params.kind ?? 'all'}
          onChange={(value) => update({ kind: value && value !== 'all' ? (value as Import['kind']) : undefined })}
          allowDeselect={false}
          w={200}
        />
        <Select
          label={t('filters.status')}
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...IMPORT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as Import['status']) : undefined })}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <DataTable
        caption={t('caption')}
        columns={columns}
        query={query}
        params={params}
        onChange={update}
        getRowId={(item) => item.id}
        emptyText={t('empty')}
        isFiltered={isFiltered}
        errorTitle={t('errorTitle')}
        minWidth={1000}
      />
      <Drawer
        opened={drawer.target !== null}
        onClose={drawer.close}
        position="right"
        size="xl"
        closeButtonProps={{ 'aria-label': t('common:close') }}
        title={
          <Title order={2} size="h3">
            {isNew ? t('wizard.title') : t('detail.title')}
          </Title>
        }
      >
        {isNew ? (
          <ImportWizard programOptions={programOptions} onChecked={(detail) => drawer.open(detail.id, { isReplace: true })} onCancel={drawer.close} />
        ) : drawer.target ? (
          <ImportDetailView id={drawer.target} />
        ) : null}
      </Drawer>
    </Stack>
  );
}
