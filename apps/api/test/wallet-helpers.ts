import { randomUUID } from 'node:crypto';
import type { TestContext } from './helper.ts';
import { createLedgerFixture, type LedgerFixture } from './ledger-fixtures.ts';

/** A customer with a points membership (made by a real purchase) for the wallet's tests. */
export type WalletMember = { fx: LedgerFixture; customerId: string; membershipId: string; token: string };

export async function purchase(ctx: TestContext, token: string, customerId: string, programId: string, amountCents: number) {
  const response = await ctx.request({
    method: 'POST',
    url: '/api/admin/ledger',
    token,
    headers: { 'idempotency-key': randomUUID() },
    payload: { customerId, programId, kind: 'purchase', amountCents },
  });
  if (response.statusCode !== 201) throw new Error(`purchase answered ${response.statusCode}: ${response.body}`);
  return response.json() as { entry: { membershipId: string }; membership: { balance: number } };
}

export async function createWalletMember(ctx: TestContext, options: { amountCents?: number } = {}): Promise<WalletMember> {
  const token = await ctx.tokenFor('admin@demo.test');
  const fx = await createLedgerFixture(ctx.app.db, { customers: 1 });
  const customerId = fx.customerIds[0]!;
  const answer = await purchase(ctx, token, customerId, fx.pointsProgramId, options.amountCents ?? 2500);
  return { fx, customerId, membershipId: answer.entry.membershipId, token };
}

/** The card's barcode message as the customers module gives it (`<number>-<code>`). */
export async function barcodeMessageOf(ctx: TestContext, token: string, customerId: string): Promise<{ cardNumber: string; barcodeMessage: string }> {
  const response = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}/card`, token });
  if (response.statusCode !== 200) throw new Error(`card answered ${response.statusCode}`);
  return response.json() as { cardNumber: string; barcodeMessage: string };
}

export async function setCustomerStatus(ctx: TestContext, token: string, customerId: string, status: 'active' | 'blocked') {
  const current = await ctx.request({ method: 'GET', url: `/api/admin/customers/${customerId}`, token });
  const response = await ctx.request({
    method: 'PATCH',
    url: `/api/admin/customers/${customerId}`,
    token,
    payload: { status, version: (current.json() as { version: number }).version },
  });
  if (response.statusCode !== 200) throw new Error(`status change answered ${response.statusCode}: ${response.body}`);
}

/** A simulated iPhone: registers for a pass and talks to the PassKit web service as Wallet does. */
export function simulatedDevice(ctx: TestContext, options: { deviceLibraryId: string; pushToken: string; passTypeId: string }) {
  const base = '/api/wallet/apple/v1';
  return {
    register: (serialNumber: string, authenticationToken: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `${base}/devices/${options.deviceLibraryId}/registrations/${options.passTypeId}/${serialNumber}`,
        headers: { authorization: `ApplePass ${authenticationToken}` },
        payload: { pushToken: options.pushToken },
      }),
    unregister: (serialNumber: string, authenticationToken: string) =>
      ctx.app.inject({
        method: 'DELETE',
        url: `${base}/devices/${options.deviceLibraryId}/registrations/${options.passTypeId}/${serialNumber}`,
        headers: { authorization: `ApplePass ${authenticationToken}` },
      }),
    updatedSince: (tag?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `${base}/devices/${options.deviceLibraryId}/registrations/${options.passTypeId}${tag === undefined ? '' : `?passesUpdatedSince=${tag}`}`,
      }),
    latest: (serialNumber: string, authenticationToken: string, ifModifiedSince?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `${base}/passes/${options.passTypeId}/${serialNumber}`,
        headers: { authorization: `ApplePass ${authenticationToken}`, ...(ifModifiedSince ? { 'if-modified-since': ifModifiedSince } : {}) },
      }),
  };
}
