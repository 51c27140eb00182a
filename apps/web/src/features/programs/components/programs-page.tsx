import { Anchor, Button, Group, Select, Stack, Title } from '@mantine/core';
import { PROGRAM_STATUSES, PROGRAM_TYPES, listProgramsQuerySchema, type Program } from '@sf/contract/programs';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ExportButton } from '../../../components/ui/export-button.tsx';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { toApiQuery, useListParams, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { PROGRAMS_PATH, usePrograms } from '../api/get-programs.ts';
import { ProgramFormDrawer } from './program-form-drawer.tsx';
import { ProgramStatusBadge } from './program-status-badge.tsx';

type SortField = ListParams<typeof listProgramsQuerySchema>['sort'];

const getRowId = (program: Program) => program.id;

type Props = { merchantOptions: { value: string; label: string }[] };

/** `/programs` — Features → Programmi fedeltà: list, filters, export and the form drawer (`?program=`). */
export function ProgramsPage({ merchantOptions }: Props) {
  const { t } = useTranslation('programs');
  const format = useFormatters();
  const { params, update, isFiltered } = useListParams(listProgramsQuerySchema);
  const drawer = useDrawerParam('program');
  const query = usePrograms(toApiQuery(params));

  const columns = useMemo<DataTableColumn<Program, SortField>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (program) => (
          <Anchor component={Link} to={drawer.hrefFor(program.id)} fw={500}>
            {program.name}
          </Anchor>
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
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <ExportButton path={PROGRAMS_PATH} params={params} />
          <Can permission="programs:write">
            <Button component={Link} to={drawer.hrefFor('new')} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('create')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <ListSearchInput value={params.q} onSearch={(q) => update({ q }, { isReplace: true })} placeholder={t('searchPlaceholder')} />
        <Select
          label={t('filters.status')}
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...PROGRAM_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as Program['status']) : undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('filters.type')}
          data={[{ value: 'all', label: t('filters.allTypes') }, ...PROGRAM_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))]}
          value={params.type ?? 'all'}
          onChange={(value) => update({ type: value && value !== 'all' ? (value as Program['type']) : undefined })}
          allowDeselect={false}
          w={160}
        />
      </Group>
      <DataTable
        caption={t('caption')}
        columns={columns}
        query={query}
        params={params}
        onChange={update}
        getRowId={getRowId}
        emptyText={t('empty')}
        isFiltered={isFiltered}
        errorTitle={t('errorTitle')}
      />
      <ProgramFormDrawer target={drawer.target} merchantOptions={merchantOptions} onClose={drawer.close} onCreated={(id) => drawer.open(id, { isReplace: true })} />
    </Stack>
  );
}
