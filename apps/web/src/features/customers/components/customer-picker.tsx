import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Customer } from '@sf/contract/customers-list';
import { useEffect, useMemo, useState } from 'react';
import { toApiQuery } from '../../../hooks/use-list-params.ts';
import { drawSelectOpening } from '../../../lib/select-opening.ts';
import { useCustomers } from '../api/get-customers.ts';
import { cardHolderOf } from '../lib/card-holder.ts';

export type PickedCustomer = { id: string; label: string };

type Props = {
  label: string;
  placeholder?: string;
  value: PickedCustomer | null;
  onChange: (customer: PickedCustomer | null) => void;
  required?: boolean;
  error?: string | undefined;
  /** Takes the focus when its dialog opens (Mantine's focus trap looks for `data-autofocus`; React's own autoFocus lost to the trap, which then focused the ✕). */
  autoFocus?: boolean;
};

const labelOf = (customer: Customer) => `${customer.lastName} ${customer.firstName} · ${customer.cardNumber}`;

/**
 * Finds a customer by card number, name, e-mail, phone or referral code (the list's own search). A card
 * scanned into it (`<number>-<code>`, or the number typed whole) picks its holder at once: at the counter
 * the reader's Enter comes before the answer, and there is nothing left to choose.
 */
export function CustomerPicker({ label, placeholder, value, onChange, required, error, autoFocus }: Props) {
  const [search, setSearch] = useState(value?.label ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const isSearching = debounced.length >= 2 && debounced !== value?.label;
  const query = useCustomers(toApiQuery({ q: debounced, pageSize: 10, page: 1, sort: 'name', order: 'asc' }), { isEnabled: isSearching });
  const cardHolder = isSearching ? cardHolderOf(debounced, query.data?.items) : undefined;
  useEffect(() => {
    if (!cardHolder || cardHolder.id === value?.id) return;
    setSearch(labelOf(cardHolder));
    onChange({ id: cardHolder.id, label: labelOf(cardHolder) });
  }, [cardHolder, value?.id, onChange]);
  const options = useMemo(() => {
    const found = (isSearching ? (query.data?.items ?? []) : []).map((customer) => ({ value: customer.id, label: labelOf(customer) }));
    if (value && !found.some((option) => option.value === value.id)) found.unshift({ value: value.id, label: value.label });
    return found;
  }, [isSearching, query.data, value]);
  const nothingFoundMessage = isSearching && query.data ? '—' : undefined;
  // Empty until two letters are typed, an open dropdown (a click, ArrowDown) was invisible and still took
  // the first Esc for itself: in a dialog that opens on this field, Esc then did nothing a person could
  // see. Open only with something to show. Its opening is drawn at once, as the theme does for every
  // Select (this onDropdownOpen replaces the theme's), so ArrowDown lands on the chosen customer.
  const [isOpen, setIsOpen] = useState(false);
  const hasSomethingToShow = options.length > 0 || nothingFoundMessage !== undefined;
  return (
    <Select
      dropdownOpened={isOpen && hasSomethingToShow}
      onDropdownOpen={() => {
        setIsOpen(true);
        drawSelectOpening();
      }}
      onDropdownClose={() => setIsOpen(false)}
      label={label}
      placeholder={placeholder}
      required={required}
      searchable
      clearable
      // Clicking the chosen customer (a scanned card's, chosen as the answer came) keeps them; × clears.
      allowDeselect={false}
      data-autofocus={autoFocus || undefined}
      filter={({ options: all }) => all}
      data={options}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => onChange(id ? { id, label: option?.label ?? id } : null)}
      // Enter while a search is typed (a barcode reader ends with one) chooses, never sends the dialog's form.
      onKeyDown={(event) => {
        if (event.key === 'Enter' && search.trim() !== (value?.label ?? '')) event.preventDefault();
      }}
      nothingFoundMessage={nothingFoundMessage}
      error={error}
    />
  );
}
