import { SYSTEM_ACTOR_EMAIL } from '@sf/contract/audit';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export type AuditRecord = {
  action: string;
  entityType: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** When it happened, if not now: a service that writes at its clock's time (a redemption) dates its record alike. */
  at?: Date;
};

/** Who did it: a request's signed-in user, an account acting on itself, or the system (scheduler, CLI). */
export type AuditActor = { id: string | null; email: string | null; requestId?: string | null; ip?: string | null };

export function actorOf(request: FastifyRequest, fallback?: { id: string; email: string }): AuditActor {
  const user = request.user ?? fallback ?? null;
  return { id: user?.id ?? null, email: user?.email ?? null, requestId: request.id, ip: request.ip };
}

/**
 * A request's actor once the account acting on itself is known (registration, a reset or invitation
 * link): that account, unless someone is signed in (as `actorOf` with a fallback).
 */
export function actorAs(actor: AuditActor, account: { id: string; email: string }): AuditActor {
  return actor.id === null ? { ...actor, id: account.id, email: account.email } : actor;
}

export const SYSTEM_ACTOR: AuditActor = { id: null, email: SYSTEM_ACTOR_EMAIL };

/**
 * Writes one audit entry (B5). Call it with the transaction that makes the change, so that the
 * change and its record are committed together or not at all.
 */
export async function recordAudit(executor: Executor, actor: AuditActor, record: AuditRecord): Promise<void> {
  await executor.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId === undefined || record.entityId === null ? null : String(record.entityId),
    before: record.before ?? null,
    after: record.after ?? null,
    requestId: actor.requestId ?? null,
    ip: actor.ip ?? null,
    ...(record.at ? { at: record.at } : {}),
  });
}
