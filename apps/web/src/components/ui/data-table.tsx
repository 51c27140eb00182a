import { Alert, Button, Checkbox, Group, NativeSelect, Pagination, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../lib/format.ts';
import { SidewaysScroll } from './sideways-scroll.tsx';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export type SortOrder = 'asc' | 'desc';

export type DataTableColumn<T, F extends string = string> = {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The contract's sort field for this column; without it the header is not sortable. */
  sortField?: F;
  /** The order of the first click on this header (text columns read best A→Z, dates newest first). */
  firstOrder?: SortOrder;
  /** Numbers and amounts line up on the right. */
  isNumeric?: boolean;
  /**
   * A name or title people type: a long word without spaces (a pasted name) wraps inside the column
   * instead of pushing the other columns off the screen. Not for codes, phones or e-mails, which stay whole.
   */
  isName?: boolean;
  /**
   * A short value read as one (a city with its province, a yes or no, a date): never broken over two
   * lines, header included, so a row stays one line high and the names and free text give way instead.
   */
  isWhole?: boolean;
  minWidth?: number;
  /**
   * The column's share of the table (`'18%'`): for a column of text cut to its width (TruncatedText
   * `fill`), whose content then never decides how wide it is — the table does, at every screen size.
   */
  width?: string;
};

/** `totalIsCapped`: the API counted up to a cap (the customers' list), so `total` means "more than". */
export type DataTablePage<T> = { items: T[]; total: number; page: number; pageSize: number; totalIsCapped?: boolean | undefined };

export type DataTableParams<F extends string = string> = { page?: number; pageSize?: number; sort?: F; order?: SortOrder };

type Props<T, F extends string> = {
  /** Names the table for screen readers (and is shown under it). */
  caption: string;
  columns: DataTableColumn<T, F>[];
  query: { data?: DataTablePage<T> | undefined; isError: boolean; isFetching: boolean; refetch?: () => unknown };
  params: DataTableParams<F>;
  onChange: (patch: DataTableParams<F>) => void;
  getRowId: (row: T) => string;
  emptyText: string;
  /** Shown instead of `emptyText` when a search or filter is on. */
  emptyFilteredText?: string;
  isFiltered?: boolean;
  errorTitle?: string;
  /** Row selection for bulk actions: `getRowLabel` names a row for its checkbox. */
  selection?: {
    getRowLabel: (row: T) => string;
    actions: (selectedIds: string[], clear: () => void) => ReactNode;
  };
  minWidth?: number;
};

const SKELETON_ROWS = 5;

/**
 * The data rows are plain `tr`/`td` with the classes and data attributes `Table.Tr`/`Table.Td` would give
 * them under this table (`striped`, `highlightOnHover`, row borders): one Mantine component per cell
 * (props, theme styles, Box) made 25 rows × 8 columns the largest part of a list's first render
 * (decision 010). The head and the loading rows keep Mantine's components.
 */
const BODY_ROW = { className: `${Table.classes.tr} mantine-Table-tr`, 'data-with-row-border': true, 'data-striped': 'odd', 'data-hover': true } as const;
const BODY_CELL_CLASS = `${Table.classes.td} mantine-Table-td`;
// Figures never break; a name's long unbroken word wraps inside its column (`isName`).
const NUMERIC_CELL_STYLE = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
const NAME_CELL_STYLE = { overflowWrap: 'anywhere', minWidth: '8rem' } as const;
const WHOLE_CELL_STYLE = { whiteSpace: 'nowrap' } as const;

function cellStyle(column: { isNumeric?: boolean | undefined; isName?: boolean | undefined; isWhole?: boolean | undefined }) {
  if (column.isNumeric) return NUMERIC_CELL_STYLE;
  if (column.isName) return NAME_CELL_STYLE;
  return column.isWhole ? WHOLE_CELL_STYLE : undefined;
}

const headerStyle = (column: { minWidth?: number | undefined; width?: string | undefined; isWhole?: boolean | undefined }) => ({
  minWidth: column.minWidth,
  width: column.width,
  whiteSpace: column.isWhole ? ('nowrap' as const) : undefined,
});

function SortHeader<F extends string>({ column, params, onChange }: { column: DataTableColumn<unknown, F>; params: DataTableParams<F>; onChange: (patch: DataTableParams<F>) => void }) {
  const { t } = useTranslation('lists');
  const field = column.sortField!;
  const isActive = params.sort === field;
  const Icon = !isActive ? IconSelector : params.order === 'asc' ? IconChevronUp : IconChevronDown;
  const nextOrder: SortOrder = isActive ? (params.order === 'asc' ? 'desc' : 'asc') : (column.firstOrder ?? 'desc');
  return (
    <Table.Th aria-sort={isActive ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'} style={headerStyle(column)}>
      <UnstyledButton onClick={() => onChange({ sort: field, order: nextOrder })} aria-label={t('sortBy', { column: column.header })} style={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
        <Group gap={4} wrap="nowrap" justify={column.isNumeric ? 'flex-end' : 'flex-start'}>
          {column.header}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * The one table of every list (decision 013: one list kit): column definitions, sortable headers with
 * aria-sort, loading skeleton, empty and error states, optional row selection with bulk actions,
 * the range, the page-size select and the pager. Sorting and paging happen on the server; the
 * state lives in the URL (`useListParams`), so this only reports the user's choices.
 */
export function DataTable<T, F extends string = string>({
  caption,
  columns,
  query,
  params,
  onChange,
  getRowId,
  emptyText,
  emptyFilteredText,
  isFiltered = false,
  errorTitle,
  selection,
  minWidth = 720,
}: Props<T, F>) {
  const { t } = useTranslation('lists');
  const format = useFormatters();
  const page = query.data;
  const pageSize = params.pageSize ?? page?.pageSize ?? 25;
  const pageCount = page ? Math.max(1, Math.ceil(page.total / Math.max(1, page.pageSize))) : 1;
  const [chosen, setSelected] = useState<string[]>([]);
  const rowIds = useMemo(() => page?.items.map(getRowId) ?? [], [page, getRowId]);

  // A selection belongs to the rows on screen: another page, sort or filter starts empty. A refresh of
  // the same rows (a refetch in the background) keeps it — clearing it on every new answer took the
  // bulk buttons away under the user's pointer — and drops only the rows that left the page: at once
  // on screen, and for good once the answer is there (a row that comes back later is not selected).
  const paramsKey = JSON.stringify(params);
  // Kept as it is when already empty: a new empty array re-rendered the whole table right after its first commit.
  useEffect(() => setSelected((current) => (current.length === 0 ? current : [])), [paramsKey]);
  const selected = useMemo(() => chosen.filter((id) => rowIds.includes(id)), [chosen, rowIds]);
  useEffect(() => {
    if (page) setSelected((current) => (current.every((id) => rowIds.includes(id)) ? current : current.filter((id) => rowIds.includes(id))));
  }, [page, rowIds]);

  if (query.isError && !page) {
    return (
      <Alert color="red" title={errorTitle ?? t('errorTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('errorText')}</Text>
          {query.refetch ? (
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch?.()}>
              {t('retry')}
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  }

  const isAllSelected = rowIds.length > 0 && rowIds.every((id) => selected.includes(id));
  const isSomeSelected = selected.length > 0 && !isAllSelected;
  const columnCount = columns.length + (selection ? 1 : 0);

  return (
    <Stack gap="sm">
      {selection && selected.length > 0 ? (
        <Group gap="sm" role="region" aria-label={t('selected', { count: selected.length })}>
          <Text size="sm" fw={500}>
            {t('selected', { count: selected.length })}
          </Text>
          {selection.actions(selected, () => setSelected([]))}
          <Button size="xs" variant="subtle" onClick={() => setSelected([])}>
            {t('clearSelection')}
          </Button>
        </Group>
      ) : null}
      <SidewaysScroll minWidth={minWidth}>
        <Table striped highlightOnHover verticalSpacing="sm" aria-busy={query.isFetching}>
          <Table.Caption>{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('selectAll')}
                    checked={isAllSelected}
                    indeterminate={isSomeSelected}
                    disabled={rowIds.length === 0}
                    onChange={() => setSelected(isAllSelected ? [] : rowIds)}
                  />
                </Table.Th>
              ) : null}
              {columns.map((column) =>
                column.sortField ? (
                  <SortHeader key={column.id} column={column as DataTableColumn<unknown, F>} params={params} onChange={onChange} />
                ) : (
                  <Table.Th key={column.id} ta={column.isNumeric ? 'right' : undefined} style={headerStyle(column)}>
                    {column.header}
                  </Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!page &&
              Array.from({ length: SKELETON_ROWS }, (_, row) => (
                <Table.Tr key={row} data-testid="row-skeleton">
                  {Array.from({ length: columnCount }, (_, cell) => (
                    <Table.Td key={cell}>
                      <Skeleton height={14} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            {page?.items.map((row) => {
              const id = getRowId(row);
              const isSelected = selected.includes(id);
              return (
                <tr key={id} {...BODY_ROW} aria-selected={selection ? isSelected : undefined}>
                  {selection ? (
                    <td className={BODY_CELL_CLASS}>
                      <Checkbox
                        aria-label={t('selectRow', { name: selection.getRowLabel(row) })}
                        checked={isSelected}
                        onChange={() => setSelected((current) => (isSelected ? current.filter((item) => item !== id) : [...current, id]))}
                      />
                    </td>
                  ) : null}
                  {columns.map((column) => (
                    <td key={column.id} className={BODY_CELL_CLASS} style={cellStyle(column)}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </SidewaysScroll>
      {page && page.items.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {isFiltered ? (emptyFilteredText ?? t('emptyFiltered')) : emptyText}
        </Text>
      )}
      {page && page.total > 0 && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t(page.totalIsCapped ? 'rangeCapped' : 'range', {
              from: format.number((page.page - 1) * page.pageSize + 1),
              to: format.number(Math.min(page.page * page.pageSize, page.total)),
              total: format.number(page.total),
            })}
          </Text>
          <Group gap="sm" wrap="wrap">
            <NativeSelect
              label={t('pageSize')}
              data={PAGE_SIZES.map((size) => String(size))}
              value={String(pageSize)}
              onChange={(event) => onChange({ pageSize: Number(event.currentTarget.value) })}
              w={100}
              size="xs"
            />
            <Pagination
              total={pageCount}
              value={Math.min(params.page ?? 1, pageCount)}
              onChange={(value) => onChange({ page: value })}
              getItemProps={(value) => ({ 'aria-label': t('page', { page: value }) })}
              getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })}
              size="sm"
              aria-label={t('pagination')}
            />
          </Group>
        </Group>
      )}
    </Stack>
  );
}
