import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
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

/**
 * What the identity flows need of the request besides the caller: the client's address (sign-in
 * throttling per address) and the request's own logger (a refusal's reason, logged with its request id).
 */
export type RequestTrace = { ip: string; log: FastifyBaseLogger };

/**
 * Who calls a public route of the identity flows (sign-in, registration, the links of our e-mails):
 * nobody is signed in yet, so the audit actor names no one until the service knows the account.
 */
export type PublicCaller = RequestTrace & { actor: AuditActor; language: Language };

export function publicCallerOf(request: FastifyRequest): PublicCaller {
  return { actor: actorOf(request), language: request.language, ip: request.ip, log: request.log };
}

/** For guarded routes whose service logs or hands the request on to the identity provider. */
export function tracedCallerOf(request: FastifyRequest): Caller & RequestTrace {
  return { ...callerOf(request), ip: request.ip, log: request.log };
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
