import type { CustomerMessage } from '@sf/contract/campaigns';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { notFound } from '../../lib/errors.ts';
import { campaignMessagesOf, eraseCampaignAddresses } from '../campaigns/campaigns.service.ts';
import { customerInTransaction } from '../customers/customers.service.ts';
import { eraseServiceMessages, serviceMessagesOf } from '../service-emails/service-emails.service.ts';

/**
 * The messages sent to one customer, for the customer page's "Messaggi" panel (newest first): the
 * campaigns and the service e-mails. The access export (privacy module) reads the same rows through
 * its generic walk of the tables that reference a customer (campaign_recipients and service_messages
 * among them).
 */
export async function customerMessages(deps: ServiceDeps, customerId: string): Promise<{ items: CustomerMessage[] }> {
  if (!(await customerInTransaction(deps.db, customerId))) throw notFound('customer');
  const campaigns = await campaignMessagesOf(deps.db, customerId);
  const services = await serviceMessagesOf(deps.db, customerId);
  const items: (CustomerMessage & { at: number })[] = [
    ...campaigns.map((row) => ({
      id: `campaign:${row.campaignId}`,
      kind: 'campaign' as const,
      campaignId: row.campaignId,
      serviceKind: null,
      subject: row.subject,
      status: row.status,
      sentAt: row.sentAt?.toISOString() ?? null,
      unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
      at: row.sentAt?.getTime() ?? Number.MAX_SAFE_INTEGER,
    })),
    ...services.map((row) => ({
      id: `service:${row.id}`,
      kind: 'service' as const,
      campaignId: null,
      serviceKind: row.kind,
      // Known once sent (the program's texts at that moment); empty after an erasure.
      subject: row.subject ?? '',
      status: row.status,
      sentAt: row.sentAt?.toISOString() ?? null,
      unsubscribedAt: null,
      at: (row.sentAt ?? row.createdAt).getTime(),
    })),
  ];
  items.sort((a, b) => b.at - a.at);
  return { items: items.map(({ at: _at, ...item }) => item) };
}

/**
 * Erasure (privacy module, inside its transaction): the address kept with every message to the
 * customer goes, and so do a service e-mail's texts (they name the customer); a message still
 * waiting is not sent. The campaign texts themselves name no one.
 */
export async function eraseMessages(tx: Executor, customerId: string): Promise<number> {
  return (await eraseCampaignAddresses(tx, customerId)) + (await eraseServiceMessages(tx, customerId));
}
