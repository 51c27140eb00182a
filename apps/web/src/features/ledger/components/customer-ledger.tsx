import { Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableParams } from '../../../components/ui/data-table.tsx';
import { toApiQuery } from '../../../hooks/use-list-params.ts';
import { useLedger } from '../api/get-ledger.ts';
import { LedgerTable, type LedgerNames } from './ledger-table.tsx';

/** The customer's own entries on their page (paging kept locally: the page's URL is the customer's). */
export function CustomerLedger({ customerId, names }: { customerId: string; names: Omit<LedgerNames, 'customerHref'> }) {
  const { t } = useTranslation('ledger');
  const [params, setParams] = useState<Required<Pick<DataTableParams<'createdAt'>, 'page' | 'pageSize' | 'sort' | 'order'>>>({ page: 1, pageSize: 10, sort: 'createdAt', order: 'desc' });
  const query = useLedger(toApiQuery({ customerId, ...params }));
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('customerLedger')}
      </Title>
      <LedgerTable
        query={query}
        params={params}
        onChange={(patch) => setParams((current) => ({ ...current, ...patch, page: patch.page ?? 1 }))}
        names={{ ...names, customerHref: null }}
        caption={t('customerLedger')}
      />
    </Stack>
  );
}
