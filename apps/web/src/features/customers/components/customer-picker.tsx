import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { toApiQuery } from '../../../hooks/use-list-params.ts';
import { useCustomers } from '../api/get-customers.ts';

export type PickedCustomer = { id: string; label: string };

type Props = {
  label: string;
  placeholder?: string;
  value: PickedCustomer | null;
  onChange: (customer: PickedCustomer | null) => void;
  required?: boolean;
  error?: string | undefined;
  autoFocus?: boolean;
};

/** Finds a customer by card number, name, e-mail, phone or referral code (the list's own search). */
export function CustomerPicker({ label, placeholder, value, onChange, required, error, autoFocus }: Props) {
  const [search, setSearch] = useState(value?.label ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const isSearching = debounced.length >= 2 && debounced !== value?.label;
  const query = useCustomers(toApiQuery({ q: debounced, pageSize: 10, page: 1, sort: 'name', order: 'asc' }), { isEnabled: isSearching });
  const options = useMemo(() => {
    const found = (isSearching ? (query.data?.items ?? []) : []).map((customer) => ({
      value: customer.id,
      label: `${customer.lastName} ${customer.firstName} · ${customer.cardNumber}`,
    }));
    if (value && !found.some((option) => option.value === value.id)) found.unshift({ value: value.id, label: value.label });
    return found;
  }, [isSearching, query.data, value]);
  return (
    <Select
      label={label}
      placeholder={placeholder}
      required={required}
      searchable
      clearable
      autoFocus={autoFocus}
      filter={({ options: all }) => all}
      data={options}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => onChange(id ? { id, label: option?.label ?? id } : null)}
      nothingFoundMessage={isSearching && query.data ? '—' : undefined}
      error={error}
    />
  );
}
