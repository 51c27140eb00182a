import { useParams } from 'react-router';
import { CustomerDetailPage } from '../../features/customers/components/customer-detail-page.tsx';
import { SCREENS } from '../navigation.tsx';

/** `/customers/:id` — the customer's page. */
export function Component() {
  const { id = '' } = useParams();
  return <CustomerDetailPage key={id} customerId={id} listHref={SCREENS.customers.path} />;
}
