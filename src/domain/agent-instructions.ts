/**
 * The instructions an organization's Docs agent follows (0.202 `OrganizationAgentInstructions`):
 * one JSON document per organization, one row (`orgAgentInstructions`), replaced whole by PUT.
 * Never set, the answer is an empty document dated from the organization's creation and
 * attributed to its first admin: the schema requires both, and no read writes a row.
 */
import type * as routes from '../api/routes/orgs.js';
import type { StoreReader } from '../store/types.js';
import { type OrgRecord, listedMember, orgMemberList } from './core-records.js';
import { type Handler, implementer } from './handler.js';
import { orgAccess } from './permissions.js';
import { apiUrl } from './urls.js';

const TABLE = 'orgAgentInstructions';

type Instructions = routes.OrganizationAgentInstructionsInput['instructions'];

interface InstructionsRecord {
  instructions: Instructions;
  updatedAt: string;
  updatedBy: string;
}

/** The organization's first admin (its first member when no listed member is an admin). */
function firstAdmin(tx: StoreReader, orgId: string): string {
  const head = orgMemberList.head(tx, orgId, 64);
  return (head.find((row) => listedMember(tx, orgId, row)?.role === 'admin') ?? head[0])?.id ?? '';
}

function instructionsView(tx: StoreReader, origin: string, org: OrgRecord) {
  const stored = tx.get<InstructionsRecord>(TABLE, org.id);
  return {
    object: 'agent-instructions' as const,
    instructions: stored?.instructions ?? { object: 'document' as const, data: {}, nodes: [] },
    updatedAt: stored?.updatedAt ?? org.createdAt,
    updatedBy: stored?.updatedBy ?? firstAdmin(tx, org.id),
    urls: { location: apiUrl(origin, `orgs/${encodeURIComponent(org.id)}/agent-instructions`) },
  };
}

const on = implementer<typeof routes>();

export const agentInstructionsHandlers: Record<string, Handler> = {
  ...on('getOrganizationAgentInstructions', (ctx, { params }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    return instructionsView(ctx.tx, ctx.origin, org);
  }),

  ...on('updateOrganizationAgentInstructions', (ctx, { params, body }) => {
    const { org } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    const record: InstructionsRecord = { instructions: body.instructions, updatedAt: ctx.clock().toISOString(), updatedBy: ctx.actor.userId };
    ctx.tx.put(TABLE, org.id, record);
    return instructionsView(ctx.tx, ctx.origin, org);
  }),
};
