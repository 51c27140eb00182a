import { Button, Group, NativeSelect, Select, Stack, TextInput, Title } from '@mantine/core';
import type { Permission } from '@sf/contract/roles';
import { IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Can } from '../can.tsx';
import { type ListQuerySchema, type ListState } from '../../hooks/use-list-params.ts';
import { DataTable, type DataTableColumn } from './data-table.tsx';
import { ExportButton } from './export-button.tsx';
import { ListSearchInput } from './list-search-input.tsx';
import { DateField } from './date-fields.tsx';
import { FilterRow } from './filter-row.tsx';
import { useFormatters } from '../../lib/format.ts';
import { dayOfInstant, instantOfDay } from '../../lib/time-zone.ts';

/**
 * The list kit's page (docs/decisions/013): a list screen DECLARES its title, its create action, its
 * export path, its search, its filters and its columns; this file lays them out the same way for
 * every list (header → filters → table → the screen's drawers), on `useList` (URL state + query).
 * The parts (`ListHeader`, `ListFilters`) also stand alone for a list inside a tab or a panel.
 */

type Option = { value: string; label: string };

/** A filter of the list's query, declared by the screen; `field` is a field of the contract's query schema. */
export type ListFilter<P> =
  /** One value of a list (statuses, programs…) or "all" (the field left out). */
  | { type: 'select'; field: keyof P & string; label: string; allLabel: string; options: readonly Option[]; width: number; isSearchable?: boolean }
  /** A yes/no field as three choices: each choice's `is` is the field's value (undefined: either). */
  | { type: 'boolean'; field: keyof P & string; label: string; choices: readonly { value: string; label: string; is: boolean | undefined }[]; width: number }
  /** Free text applied when the field loses focus or on Enter. */
  | { type: 'text'; field: keyof P & string; label: string; width: number }
  /**
   * A period: two calendar days, each field's calendar ending at the other's day. A second day typed
   * before the first stays in its field, not in the URL, and "Al" says why (PeriodFields). `isInstant`: the API wants the start of the first day and the end of the second,
   * in the user's time zone (as the rows show their times), as ISO instants; without it the fields hold
   * the days themselves (`yyyy-mm-dd`).
   */
  | { type: 'period'; from: keyof P & string; to: keyof P & string; labels: { from: string; to: string }; width: number; isInstant?: boolean }
  /** Anything else the screen composes (a customer picker, a segmented control…). */
  | { type: 'custom'; key: string; node: ReactNode };

type FiltersProps<P> = {
  params: P;
  update: (patch: Partial<P>, options?: { isReplace?: boolean }) => void;
  /** The search field's placeholder: with it the row starts with the list's search (`q`). */
  searchPlaceholder?: string;
  filters?: readonly ListFilter<P>[];
};

type Period = { first: string; last: string };

/**
 * A period's two days. The URL (and so the API) gets only a period whose end is not before its start:
 * the API answered an inverted one with an error ("Impossibile caricare i movimenti"). A day that
 * would invert it stays in its field as typed, "Al" says why, and the list stays on the last period.
 */
function PeriodFields<P>({ filter, params, update }: { filter: Extract<ListFilter<P>, { type: 'period' }>; params: P; update: FiltersProps<P>['update'] }) {
  const values = params as Record<string, unknown>;
  const { timeZone } = useFormatters();
  const { from, to, isInstant } = filter;
  const dayIn = (field: string) => (isInstant ? dayOfInstant(values[field] as string | undefined, timeZone) : ((values[field] as string | undefined) ?? ''));
  const stored: Period = { first: dayIn(from), last: dayIn(to) };
  // What was typed over the stored period; another period in the URL (Back, a link) replaces it.
  const [typed, setTyped] = useState<{ over: Period; period: Period } | null>(null);
  const isTypedOverStored = typed !== null && typed.over.first === stored.first && typed.over.last === stored.last;
  const shown = isTypedOverStored ? typed.period : stored;
  const choose = (patch: Partial<Period>) => {
    const next = { ...shown, ...patch };
    if (next.first && next.last && next.last < next.first) return setTyped({ over: stored, period: next });
    setTyped(null);
    const valueOf = (day: string, isEnd: boolean) => (isInstant ? instantOfDay(day, timeZone, isEnd) : day || undefined);
    // One change for both days: a second one would start from the URL the first had not yet changed.
    update({ [from]: valueOf(next.first, false), [to]: valueOf(next.last, true) } as Partial<P>);
  };
  return (
    <>
      <DateField label={filter.labels.from} value={shown.first} maxDate={shown.last || undefined} onChange={(first) => choose({ first })} w={filter.width} clearable />
      <DateField label={filter.labels.to} value={shown.last} minDate={shown.first || undefined} minDateName={filter.labels.from} onChange={(last) => choose({ last })} w={filter.width} clearable />
    </>
  );
}

function FilterField<P>({ filter, params, update }: { filter: ListFilter<P>; params: P; update: FiltersProps<P>['update'] }) {
  const values = params as Record<string, unknown>;
  const set = (field: string, value: unknown) => update({ [field]: value } as Partial<P>);
  switch (filter.type) {
    case 'select': {
      const data = [{ value: 'all', label: filter.allLabel }, ...filter.options];
      const value = (values[filter.field] as string | undefined) ?? 'all';
      const choose = (chosen: string | null) => set(filter.field, chosen && chosen !== 'all' ? chosen : undefined);
      // A long list the user types into keeps Mantine's combobox; the others are the platform's own select.
      return filter.isSearchable ? (
        <Select label={filter.label} data={data} value={value} onChange={choose} allowDeselect={false} searchable w={filter.width} />
      ) : (
        <NativeSelect label={filter.label} data={data} value={value} onChange={(event) => choose(event.currentTarget.value)} w={filter.width} />
      );
    }
    case 'boolean': {
      const current = filter.choices.find((choice) => choice.is === values[filter.field]) ?? filter.choices[0];
      return (
        <NativeSelect
          label={filter.label}
          data={filter.choices.map(({ value, label }) => ({ value, label }))}
          value={current?.value ?? ''}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            set(filter.field, filter.choices.find((choice) => choice.value === chosen)?.is);
          }}
          w={filter.width}
        />
      );
    }
    case 'text': {
      const value = (values[filter.field] as string | undefined) ?? '';
      return (
        <TextInput
          label={filter.label}
          defaultValue={value}
          key={value}
          onBlur={(event) => set(filter.field, event.currentTarget.value.trim() || undefined)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') set(filter.field, event.currentTarget.value.trim() || undefined);
          }}
          w={filter.width}
        />
      );
    }
    case 'period':
      return <PeriodFields filter={filter} params={params} update={update} />;
    case 'custom':
      return <>{filter.node}</>;
  }
}

/** The row of a list's search and filters, each bound to its URL parameter. */
export function ListFilters<P>({ params, update, searchPlaceholder, filters = [] }: FiltersProps<P>) {
  const q = (params as { q?: string }).q;
  return (
    <FilterRow>
      {searchPlaceholder !== undefined ? (
        <ListSearchInput value={q} onSearch={(value) => update({ q: value } as unknown as Partial<P>, { isReplace: true })} placeholder={searchPlaceholder} />
      ) : null}
      {filters.map((filter) => (
        <FilterField key={filter.type === 'custom' ? filter.key : filter.type === 'period' ? filter.from : filter.field} filter={filter} params={params} update={update} />
      ))}
    </FilterRow>
  );
}

/**
 * The "new …" button of a list: a link (it opens the screen's drawer) or a click (a dialog), shown
 * only to the roles that hold `permission` when one is given.
 */
export type ListCreateAction = { label: string; icon?: ReactNode; permission?: Permission } & (
  /** `state` goes with the navigation (e.g. News marks the drawer's history entry so closing it goes back). */
  { href: string; state?: unknown } | { onClick: () => void }
);

function CreateButton({ action }: { action: ListCreateAction }) {
  const icon = action.icon ?? <IconPlus size={16} aria-hidden />;
  const button =
    'href' in action ? (
      <Button component={Link} to={action.href} {...(action.state !== undefined ? { state: action.state } : {})} leftSection={icon}>
        {action.label}
      </Button>
    ) : (
      <Button leftSection={icon} onClick={action.onClick}>
        {action.label}
      </Button>
    );
  return action.permission ? <Can permission={action.permission}>{button}</Can> : button;
}

/** The export button (the list's filters and sort, every page) and the create action, side by side. */
function ListActions({ exportPath, params, create }: { exportPath?: string | undefined; params: Record<string, unknown>; create?: ListCreateAction | undefined }) {
  const createButton = create ? <CreateButton action={create} /> : null;
  if (exportPath && createButton) {
    return (
      <Group gap="sm">
        <ExportButton path={exportPath} params={params} />
        {createButton}
      </Group>
    );
  }
  return exportPath ? <ExportButton path={exportPath} params={params} /> : createButton;
}

/** A list screen's title with its export and create actions. */
export function ListHeader({ title, exportPath, params, create }: { title: string; exportPath?: string; params: Record<string, unknown>; create?: ListCreateAction }) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Title order={1}>{title}</Title>
      <ListActions exportPath={exportPath} params={params} create={create} />
    </Group>
  );
}

/** A list inside a panel or a tab (no title): search and filters on the left, export and create on the right. */
export function ListToolbar<P>({ exportPath, create, ...filters }: FiltersProps<P> & { exportPath?: string; create?: ListCreateAction }) {
  return (
    <Group justify="space-between" align="flex-end" wrap="nowrap">
      {/* The filters take the row beside the actions and wrap within it: sized to their content, they
          wrapped around the actions instead, leaving the staff list's "Stato" alone on a second row. */}
      <div style={{ flex: '1 1 0', minWidth: 0 }}>
        <ListFilters {...filters} />
      </div>
      <ListActions exportPath={exportPath} params={filters.params as Record<string, unknown>} create={create} />
    </Group>
  );
}

type TableProps<T, S extends ListQuerySchema> = {
  list: ListState<S, T>;
  texts: { caption: string; empty: string; errorTitle: string; emptyFiltered?: string };
  columns: DataTableColumn<T, NonNullable<ListState<S, T>['params']['sort']> & string>[];
  getRowId: (row: T) => string;
  minWidth?: number;
  selection?: { getRowLabel: (row: T) => string; actions: (selectedIds: string[], clear: () => void) => ReactNode };
};

/** The list's table bound to its URL state: sort and paging write the URL, the page comes from `useList`. */
export function ListTable<T, S extends ListQuerySchema>({ list, texts, columns, getRowId, minWidth, selection }: TableProps<T, S>) {
  return (
    <DataTable
      caption={texts.caption}
      columns={columns}
      query={list.query}
      params={list.params as never}
      onChange={list.update as never}
      getRowId={getRowId}
      emptyText={texts.empty}
      {...(texts.emptyFiltered !== undefined ? { emptyFilteredText: texts.emptyFiltered } : {})}
      isFiltered={list.isFiltered}
      errorTitle={texts.errorTitle}
      {...(minWidth !== undefined ? { minWidth } : {})}
      {...(selection ? { selection } : {})}
    />
  );
}

/** The texts every list has (from the screen's namespace); `emptyFiltered` replaces the kit's generic "nothing matches". */
export type ListTexts = { title: string; caption: string; empty: string; errorTitle: string; searchPlaceholder?: string; emptyFiltered?: string };

type ListPageProps<T, S extends ListQuerySchema> = Omit<TableProps<T, S>, 'texts'> & {
  texts: ListTexts;
  /** The list's API path: the header gets an export button for `<path>/export.csv`. */
  exportPath?: string;
  create?: ListCreateAction;
  /** A line or two under the title, before the filters. */
  intro?: ReactNode;
  filters?: readonly ListFilter<ListState<S, T>['params']>[];
  /** The screen's drawers and dialogs, after the table. */
  children?: ReactNode;
};

/** A whole list screen from its declaration: header, (intro,) filters, table, then the screen's drawers. */
export function ListPage<T, S extends ListQuerySchema>({ texts, exportPath, create, intro, filters, children, ...table }: ListPageProps<T, S>) {
  const { params, update } = table.list;
  return (
    <Stack gap="lg">
      <ListHeader title={texts.title} params={params} {...(exportPath ? { exportPath } : {})} {...(create ? { create } : {})} />
      {intro}
      <ListFilters params={params} update={update} {...(texts.searchPlaceholder !== undefined ? { searchPlaceholder: texts.searchPlaceholder } : {})} {...(filters ? { filters } : {})} />
      <ListTable texts={texts} {...table} />
      {children}
    </Stack>
  );
}
