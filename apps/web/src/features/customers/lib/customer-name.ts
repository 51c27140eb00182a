import type { Customer } from '@sf/contract/customers';
import type { TFunction } from 'i18next';

/**
 * How a customer is named on screen. An erased customer has no name left (privacy erasure blanks it):
 * "Cliente cancellato" with the new card number, so the row can still be read and opened and the page
 * still has a heading.
 */
export function customerName(customer: Pick<Customer, 'firstName' | 'lastName' | 'status' | 'cardNumber'>, t: TFunction, order: 'first' | 'last' = 'first'): string {
  const name = (order === 'first' ? `${customer.firstName} ${customer.lastName}` : `${customer.lastName} ${customer.firstName}`).trim();
  if (customer.status === 'erased' || name === '') return t('customers:erasedName', { card: customer.cardNumber });
  return name;
}
