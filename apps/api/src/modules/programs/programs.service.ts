import { programRuleIssues, type CreateProgram, type ListProgramsQuery, type Program, type UpdateProgram } from '@sf/contract/programs';
import type { Executor } from '../../db/client.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, notFound, validationFailed } from '../../lib/errors.ts';
import { merchantsThatExist } from '../merchants/merchants.service.ts';
import { retierMembers } from '../ledger/ledger.service.ts';
import {
  findProgram,
  findPrograms,
  insertProgram,
  merchantIdsOf,
  programNamesByIds,
  replaceProgramMerchants,
  toProgram,
  updateProgramRow,
  type ProgramValues,
} from './programs.repository.ts';

export const PROGRAM_ENTITY = 'program';

const programNotFound = () => notFound('program');

function valuesOf(input: Partial<CreateProgram>): Partial<ProgramValues> {
  const values: Partial<ProgramValues> = {};
  const copy = ['name', 'type', 'status', 'pointsPerEuro', 'minSpendCents', 'stampsRequired', 'maxStampsPerDay', 'maxStampsPerTransaction', 'tiers', 'tierWindow', 'bonuses', 'walletBackgroundColor', 'walletForegroundColor', 'walletLogo', 'terms'] as const;
  for (const key of copy) {
    if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  }
  if (input.expiry !== undefined) {
    values.expiryPolicy = input.expiry.policy;
    values.expiryDays = input.expiry.policy === 'afterDays' ? input.expiry.days : null;
  }
  return values;
}

/**
 * Every named merchant must exist, and one joining the circuit must be active (a suspended or archived
 * merchant already in it stays, its history with it): 400 naming merchantIds otherwise.
 */
async function checkMerchants(executor: Executor, ids: string[], kept: string[] = []) {
  const found = await merchantsThatExist(executor, ids);
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) {
    throw validationFailed([{ field: `merchantIds.${missing}`, message: 'notFound', label: 'merchant' }]);
  }
  const inactive = ids.findIndex((id) => found.get(id) !== 'active' && !kept.includes(id));
  if (inactive >= 0) throw validationFailed([{ field: `merchantIds.${inactive}`, text: 'circuit_merchant_not_active' }]);
}

function checkRules(program: Parameters<typeof programRuleIssues>[0]) {
  const issues = programRuleIssues(program);
  if (issues.length === 0) return;
  throw validationFailed(
    issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.messageKey, ...(issue.min === undefined ? {} : { min: issue.min }) })),
  );
}

export async function listPrograms(deps: ServiceDeps, query: ListProgramsQuery) {
  const { rows, total } = await findPrograms(deps.db, query);
  const merchantIds = await merchantIdsOf(
    deps.db,
    rows.map((row) => row.program.id),
  );
  return {
    items: rows.map((row) => toProgram(row.program, merchantIds.get(row.program.id) ?? [])),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getProgram(deps: ServiceDeps, caller: Caller, id: string): Promise<Program> {
  const row = await findProgram(deps.db, id);
  if (!row) throw programNotFound();
  return toProgram(row, (await merchantIdsOf(deps.db, [id])).get(id) ?? []);
}

export async function createProgram(deps: ServiceDeps, caller: Caller, input: CreateProgram): Promise<Program> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await checkMerchants(tx, input.merchantIds);
    const row = await insertProgram(tx, { ...(valuesOf(input) as ProgramValues), createdAt: now, updatedAt: now });
    await replaceProgramMerchants(tx, row.id, input.merchantIds);
    const program = toProgram(row, [...input.merchantIds].sort());
    await recordAudit(tx, caller.actor, { action: 'create', entityType: PROGRAM_ENTITY, entityId: row.id, after: program });
    return program;
  });
}

export async function updateProgram(deps: ServiceDeps, caller: Caller, id: string, input: UpdateProgram): Promise<Program> {
  const { version, merchantIds, ...fields } = input;
  return deps.db.transaction(async (tx) => {
    const current = await findProgram(tx, id, { forUpdate: true });
    if (!current) throw programNotFound();
    if (current.version !== version) throw new AppError(409, 'version_conflict');
    const currentMerchants = (await merchantIdsOf(tx, [id])).get(id) ?? [];
    const before = toProgram(current, currentMerchants);
    // The rules across fields hold for the program as it will be.
    checkRules(
      {
        type: fields.type ?? before.type,
        pointsPerEuro: fields.pointsPerEuro !== undefined ? fields.pointsPerEuro : before.pointsPerEuro,
        stampsRequired: fields.stampsRequired !== undefined ? fields.stampsRequired : before.stampsRequired,
        tiers: fields.tiers ?? before.tiers,
        expiry: fields.expiry ?? before.expiry,
        ...(merchantIds !== undefined ? { merchantIds } : {}),
      },
    );
    if (merchantIds !== undefined) {
      await checkMerchants(tx, merchantIds, currentMerchants);
      await replaceProgramMerchants(tx, id, merchantIds);
    }
    const row = await updateProgramRow(tx, id, { ...valuesOf(fields), version: current.version + 1, updatedAt: deps.clock.now() });
    // New tier rules apply to every member now, as ledger:verify expects (decision 032).
    if (fields.tiers !== undefined || fields.tierWindow !== undefined) await retierMembers(tx, deps, id, caller.actor);
    const after = toProgram(row, merchantIds !== undefined ? [...merchantIds].sort() : currentMerchants);
    await recordAudit(tx, caller.actor, { action: 'update', entityType: PROGRAM_ENTITY, entityId: id, before, after });
    return after;
  });
}

/** For the audit list: these programs' names in one query. */
export function programNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  return programNamesByIds(executor, ids);
}
