import type { CustomerCard } from '@sf/contract/customer-cards';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { CUSTOMERS_PATH, customerKeys } from './get-customers.ts';

const cardKey = (id: string) => [...customerKeys.customer(id), 'card'] as const;

/** What the card prints and encodes: the number, and `<number>-<code>` for the QR code and barcode (decision 030). */
export function useCustomerCard(customerId: string) {
  return useQuery({
    queryKey: cardKey(customerId),
    // The card says its own failure (`FailureAlert`, `StaleDataNotice`): a toast as well said it twice.
    queryFn: ({ signal }) => apiClient.get<CustomerCard>(`${CUSTOMERS_PATH}/${customerId}/card`, { signal, isSilent: true }),
  });
}

/** A lost or copied card: a new code (the old one stops working at once); the card needs reprinting. */
export function useRegenerateCardCode(customerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post<CustomerCard>(`${CUSTOMERS_PATH}/${customerId}/card-code`),
    onSuccess: (card) => {
      client.setQueryData(cardKey(customerId), card);
      // The customer's version went up with the code.
      return client.invalidateQueries({ queryKey: customerKeys.customer(customerId), exact: true });
    },
  });
}
