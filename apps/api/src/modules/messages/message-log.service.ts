import type { CustomerMessage } from '@sf/contract/campaigns';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { notFound } from '../../lib/errors.ts';
import { campaignMessagesOf, eraseCampaignAddresses } from '../campaigns/campaigns.service.ts';
import { customerInTransaction } from '../customers/customers.service.ts';

/**
 * The messages sent to one customer, for the customer page's "Messaggi" panel (newest first). The
 * access export (privacy module) reads the same rows through its generic walk of the tables that
 * reference a customer (campaign_recipients among them).
 */
export async function customerMessages(deps: ServiceDeps, customerId: string): Promise<{ items: CustomerMessage[] }> {
  if (!(await customerInTransaction(deps.db, customerId))) throw notFound('customer');
  const rows = await campaignMessagesOf(deps.db, customerId);
  return {
    items: rows.map((row) => ({
      kind: 'campaign' as const,
      campaignId: row.campaignId,
      subject: row.subject,
      status: row.status,
      sentAt: row.sentAt?.toISOString() ?? null,
      unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * Erasure (privacy module, inside its transaction): the address kept with every message to the
 * customer goes, and a message still waiting is not sent. The campaign texts themselves name no one.
 */
export async function eraseMessages(tx: Executor, customerId: string): Promise<number> {
  return eraseCampaignAddresses(tx, customerId);
}
