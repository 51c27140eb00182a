import { Drawer } from '@mantine/core';
import { IMPORT_KINDS, IMPORT_STATUSES, listImportsQuerySchema, type Import } from '@sf/contract/imports';
import { IconFileImport } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useImports } from '../api/get-imports.ts';
import { ImportDetailView, ImportStatusBadge } from './import-detail.tsx';
import { ImportWizard } from './import-wizard.tsx';

type SortField = ListParams<typeof listImportsQuerySchema>['sort'];

/** `/imports` — Pages → Importazioni: the imports and their reports; `?import=new` opens the wizard. */
export function ImportsPage({ programOptions }: { programOptions: { value: string; label: string }[] }) {
  const { t } = useTranslation('imports');
  const format = useFormatters();
  const list = useList(listImportsQuerySchema, useImports);
  const drawer = useDrawerParam('import');

  const columns = useMemo<DataTableColumn<Import, SortField>[]>(
    () => [
      {
        id: 'fileName',
        header: t('columns.fileName'),
        sortField: 'fileName',
        firstOrder: 'asc',
        cell: (item) => (
          <TextLink to={drawer.hrefFor(item.id)} isStrong>
            {item.fileName}
          </TextLink>
        ),
      },
      { id: 'kind', header: t('columns.kind'), sortField: 'kind', firstOrder: 'asc', cell: (item) => t(`kind.${item.kind}`) },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (item) => <ImportStatusBadge status={item.status} /> },
      { id: 'rows', header: t('columns.rows'), isNumeric: true, cell: (item) => format.number(item.totalRows) },
      { id: 'imported', header: t('columns.imported'), isNumeric: true, cell: (item) => format.number(item.importedRows) },
      { id: 'errors', header: t('columns.errors'), isNumeric: true, cell: (item) => format.number(item.errorRows) },
      { id: 'progress', header: t('columns.progress'), isNumeric: true, cell: (item) => `${item.progress}%` },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (item) => format.dateTime(item.createdAt) },
      // The staff member's name (their e-mail when they have none), the e-mail on hover.
      { id: 'createdBy', header: t('columns.createdBy'), cell: (item) => <span title={item.createdBy ?? undefined}>{item.createdByName ?? item.createdBy ?? '—'}</span> },
    ],
    [t, format, drawer],
  );

  const isNew = drawer.target === 'new';
  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      create={{ permission: 'imports:write', href: drawer.hrefFor('new'), label: t('create'), icon: <IconFileImport size={16} aria-hidden /> }}
      filters={[
        { type: 'select', field: 'kind', label: t('filters.kind'), allLabel: t('filters.allKinds'), options: IMPORT_KINDS.map((value) => ({ value, label: t(`kind.${value}`) })), width: 200 },
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: IMPORT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 180 },
      ]}
      columns={columns}
      getRowId={(item) => item.id}
      minWidth={1000}
    >
      <Drawer
        opened={drawer.target !== null}
        onClose={drawer.close}
        position="right"
        size="xl"
        closeButtonProps={{ 'aria-label': t('common:close') }}
        title={isNew ? t('wizard.title') : t('detail.title')}
      >
        {isNew ? (
          <ImportWizard programOptions={programOptions} onChecked={(detail) => drawer.open(detail.id, { isReplace: true })} onCancel={drawer.close} />
        ) : drawer.target ? (
          <ImportDetailView id={drawer.target} />
        ) : null}
      </Drawer>
    </ListPage>
  );
}
