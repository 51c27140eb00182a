import type { Language } from '@sf/contract/app-info';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { recordAudit, type AuditActor } from '../../lib/audit.ts';
import { appendConsent, customerInTransaction } from '../customers/customers.service.ts';
import { noteUnsubscribed, recipientByToken } from '../campaigns/campaigns.service.ts';
import { serviceMessageByToken } from '../service-emails/service-emails.service.ts';

/** What the unsubscribe page shows: an unknown link, or whether marketing is still on, in the customer's language. */
export type UnsubscribeState = { state: 'unknown' } | { state: 'subscribed' | 'unsubscribed'; isProfilingOn: boolean; language: Language };

/** The consent record's notice version for a withdrawal made with the link (no notice is shown then). */
export const UNSUBSCRIBE_NOTICE = 'unsubscribe-link';

/**
 * The link's owner: a campaign recipient row, or a service e-mail (whose footer links to the same
 * page, as the customer's preferences: stop promotions, stop profiling).
 */
async function stateOf(executor: Executor, token: string, options: { forUpdate?: boolean } = {}) {
  const recipient = await recipientByToken(executor, token);
  const customerId = recipient?.customerId ?? (await serviceMessageByToken(executor, token))?.customerId;
  if (!customerId) return null;
  const customer = await customerInTransaction(executor, customerId, options);
  if (!customer) return null;
  return { recipient, customer };
}

/** `GET /u/<token>`: reads only. A GET never unsubscribes: mail scanners follow every link. */
export async function unsubscribeState(deps: ServiceDeps, token: string): Promise<UnsubscribeState> {
  const found = await stateOf(deps.db, token);
  if (!found) return { state: 'unknown' };
  const { customer } = found;
  const { language } = customer;
  if (customer.status === 'erased') return { state: 'unsubscribed', isProfilingOn: false, language };
  return { state: customer.marketingConsent ? 'subscribed' : 'unsubscribed', isProfilingOn: customer.profilingConsent, language };
}

/**
 * `POST /u/<token>` (the page's button, or a mail provider's RFC 8058 one-click POST): the marketing
 * consent is withdrawn at once — a new consent record with channel `email_link` — and, when asked,
 * profiling too. Repeating it changes nothing. Audited as the customer's own act.
 */
export async function unsubscribe(
  deps: ServiceDeps,
  actor: AuditActor,
  token: string,
  options: { isProfilingWithdrawn: boolean },
): Promise<UnsubscribeState> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const found = await stateOf(tx, token, { forUpdate: true });
    if (!found) return { state: 'unknown' as const };
    const { recipient, customer } = found;
    const { language } = customer;
    if (customer.status === 'erased') return { state: 'unsubscribed' as const, isProfilingOn: false, language };
    const withdrawn: string[] = [];
    if (customer.marketingConsent) withdrawn.push('marketing');
    if (options.isProfilingWithdrawn && customer.profilingConsent) withdrawn.push('profiling');
    for (const purpose of withdrawn as ('marketing' | 'profiling')[]) {
      await appendConsent(tx, { customerId: customer.id, purpose, granted: false, channel: 'email_link', noticeVersion: UNSUBSCRIBE_NOTICE, at: now, recordedBy: null });
    }
    if (recipient) await noteUnsubscribed(tx, recipient.id, now);
    if (withdrawn.length > 0) {
      await recordAudit(tx, actor, {
        action: 'consent_withdraw',
        entityType: 'customer',
        entityId: customer.id,
        after: { purposes: withdrawn, channel: 'email_link', campaignId: recipient?.campaignId ?? null },
      });
    }
    return { state: 'unsubscribed' as const, isProfilingOn: customer.profilingConsent && !withdrawn.includes('profiling'), language };
  });
}
