import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { BOUNDS } from '@sf/contract/validation';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SEARCH_DELAY_MS = 300;

type Props = {
  value: string | undefined;
  /** Called with the settled, trimmed text (it replaces the current history entry). */
  onSearch: (value: string | undefined) => void;
  label?: string;
  placeholder?: string;
};

/** A list's search field: the URL follows the text once typing pauses, not on every keystroke. */
export function ListSearchInput({ value, onSearch, label, placeholder }: Props) {
  const { t } = useTranslation('lists');
  const [search, setSearch] = useState(value ?? '');
  const [debounced] = useDebouncedValue(search, SEARCH_DELAY_MS);

  // Back/forward or a shared link can change the search under the field: follow it.
  useEffect(() => setSearch(value ?? ''), [value]);

  useEffect(() => {
    const trimmed = debounced.trim();
    if (trimmed !== (value ?? '')) onSearch(trimmed || undefined);
    // Only the settled text drives the URL; value is read here, not watched.
  }, [debounced]);

  return (
    <TextInput
      type="search"
      label={label ?? t('search')}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={search}
      maxLength={BOUNDS.searchMax}
      onChange={(event) => setSearch(event.currentTarget.value)}
      style={{ flex: '1 1 16rem' }}
    />
  );
}
