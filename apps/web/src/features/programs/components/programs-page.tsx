import { PROGRAM_STATUSES, PROGRAM_TYPES, listProgramsQuerySchema, type Program } from '@sf/contract/programs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { PROGRAMS_PATH, usePrograms } from '../api/get-programs.ts';
import { ProgramFormDrawer } from './program-form-drawer.tsx';
import type { RenderCustomerPicker } from './program-service-emails.tsx';
import { ProgramStatusBadge } from './program-status-badge.tsx';

type SortField = ListParams<typeof listProgramsQuerySchema>['sort'];

const getRowId = (program: Program) => program.id;

/** The customer picker (the preview of the service e-mails) comes from the app: features do not import each other. */
type Props = { merchantOptions: { value: string; label: string }[]; renderCustomerPicker: RenderCustomerPicker };

/** `/programs` — Features → Programmi fedeltà: list, filters, export and the form drawer (`?program=`). */
export function ProgramsPage({ merchantOptions, renderCustomerPicker }: Props) {
  const { t } = useTranslation('programs');
  const format = useFormatters();
  const list = useList(listProgramsQuerySchema, usePrograms);
  const drawer = useDrawerParam('program');

  const columns = useMemo<DataTableColumn<Program, SortField>[]>(
    () => [
      {
        id: 'name',
        isName: true,
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (program) => (
          <TextLink to={drawer.hrefFor(program.id)} isStrong>
            {program.name}
          </TextLink>
        ),
      },
      { id: 'type', header: t('columns.type'), sortField: 'type', firstOrder: 'asc', cell: (program) => t(`type.${program.type}`) },
      {
        id: 'rule',
        header: t('columns.rule'),
        cell: (program) =>
          program.type === 'points'
            ? t('rule.points', { rate: format.number(program.pointsPerEuro ?? 0) })
            : t('rule.stamps', { count: program.stampsRequired ?? 0 }),
      },
      { id: 'merchants', header: t('columns.merchants'), isNumeric: true, cell: (program) => format.number(program.merchantIds.length) },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (program) => <ProgramStatusBadge status={program.status} /> },
      { id: 'updatedAt', header: t('columns.updatedAt'), sortField: 'updatedAt', cell: (program) => format.dateTime(program.updatedAt) },
    ],
    [t, format, drawer.hrefFor],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={PROGRAMS_PATH}
      create={{ permission: 'programs:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: PROGRAM_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 160 },
        { type: 'select', field: 'type', label: t('filters.type'), allLabel: t('filters.allTypes'), options: PROGRAM_TYPES.map((value) => ({ value, label: t(`type.${value}`) })), width: 160 },
      ]}
      columns={columns}
      getRowId={getRowId}
    >
      <ProgramFormDrawer
        target={drawer.target}
        merchantOptions={merchantOptions}
        onClose={drawer.close}
        onCreated={(id) => drawer.open(id, { isReplace: true })}
        renderCustomerPicker={renderCustomerPicker}
      />
    </ListPage>
  );
}
