import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '@sf/contract/app-info';
import type { Database } from '../db/client.ts';
import type { Clock } from './clock.ts';
import { actorOf, type AuditActor } from './audit.ts';

/** Who calls a service: the audit actor, the staff member's id and the language of the answers. */
export type Caller = { actor: AuditActor; userId: string; language: Language };

/** What a module's services need from the app (faked pieces in tests: the clock). */
export type ServiceDeps = { db: Database; clock: Clock; timeZone: string };

/** For guarded routes only: access control has set the user before the handler runs. */
export function callerOf(request: FastifyRequest): Caller {
  const user = request.user as NonNullable<FastifyRequest['user']>;
  return { actor: actorOf(request), userId: user.id, language: request.language };
}

export function depsOf(app: FastifyInstance): ServiceDeps {
  return { db: app.db, clock: app.clock, timeZone: app.env.BUSINESS_TIME_ZONE };
}

/**
 * The acting person as the ledger and rewards record them (`created_by`, the entry's label, the
 * audit actor); null id for the system.
 */
export type ActingCaller = { id: string | null; label: string; audit: AuditActor };

/** For guarded routes only: the signed-in staff member as an ActingCaller. */
export function staffActorOf(request: FastifyRequest): ActingCaller {
  const user = request.user as NonNullable<FastifyRequest['user']>;
  return { id: user.id, label: user.email, audit: actorOf(request) };
}
