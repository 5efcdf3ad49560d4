/**
 * The `permissions:` of spaces, collections and sites: roles granted to members (by e-mail)
 * and teams (by title). Each grant is one step: `+` invites (inviteToSpace…), `~` changes the
 * role (updateUserPermissionInSpace…), `-` removes it (removeUserFromSpace…), the last only
 * with --prune and only on objects whose `permissions` the file lists. The current grants are
 * read per object (two lists: users and teams), for the objects the file gives permissions to.
 */
import type { RouteId } from '../api/route-id.js';
import type { FieldPath } from './parse.js';
import type { FieldChange, PlannedRequest, Ref, StepOp } from './steps.js';
import type { FilePermission } from './schema.js';
import type { CurrentGrant, GrantTarget, OrgState } from './state.js';

export type GrantKind = GrantTarget['kind'];

/** What the organization planner lends the grants planner. */
export interface GrantContext {
  state: OrgState;
  prune: boolean;
  need(key: string, path: FieldPath, what: string, hint: string): string | Ref;
  step(op: StepOp, kind: string, name: string, changes: FieldChange[], requests: PlannedRequest[]): void;
}

/** One object whose permissions the file lists. */
export interface GrantObject {
  kind: GrantKind;
  /** How the file names it (`Engineering/Handbook`). */
  name: string;
  /** Its id, or a reference to it when the plan creates it. */
  id: string | Ref;
  wanted: readonly FilePermission[];
  /** Where its `permissions` list is in the file. */
  path: FieldPath;
}

const NOUN = { space: 'Space', collection: 'Collection', site: 'Site' } as const;

const route = (verb: 'inviteTo' | 'updateUserPermissionIn' | 'updateTeamPermissionIn' | 'removeUserFrom' | 'removeTeamFrom', kind: GrantKind) => `${verb}${NOUN[kind]}` as RouteId;

export function targetOf(kind: GrantKind, id: string): GrantTarget {
  return kind === 'space' ? { kind, spaceId: id } : kind === 'collection' ? { kind, collectionId: id } : { kind, siteId: id };
}

/** Path parameters with the object's id (or reference) in place. */
function paramsOf(organizationId: string, kind: GrantKind, id: string | Ref): Record<string, string | Ref> {
  const key = kind === 'space' ? 'spaceId' : kind === 'collection' ? 'collectionId' : 'siteId';
  return kind === 'site' ? { organizationId, [key]: id } : { [key]: id };
}

/** `bob@example.com` or `team Writers`: how a grant's holder is shown in the plan. */
const holder = (grant: { principal: 'user' | 'team'; name: string }) => (grant.principal === 'user' ? grant.name : `team ${grant.name}`);

/** Reads the current grants of the objects that exist, all at once (the plan then awaits each). */
export function prefetchGrants(state: OrgState, objects: readonly GrantObject[]): void {
  for (const object of objects) if (typeof object.id === 'string') state.grants(targetOf(object.kind, object.id)).catch(() => undefined);
}

export async function planGrants(ctx: GrantContext, object: GrantObject): Promise<void> {
  const { state } = ctx;
  const params = paramsOf(state.organizationId, object.kind, object.id);
  const current: CurrentGrant[] = typeof object.id === 'string' ? await state.grants(targetOf(object.kind, object.id)) : [];
  const kept = new Set<CurrentGrant>();
  const kind = `${object.kind} permission`;
  object.wanted.forEach((grant, i) => {
    const here = [...object.path, i];
    if ('user' in grant) {
      const email = grant.user.toLowerCase();
      ctx.need(`member:${email}`, [...here, 'user'], `member ${grant.user}`, 'add them to members first');
      const existing = current.find((c) => c.principal === 'user' && c.name.toLowerCase() === email);
      const name = `${object.name}: ${grant.user}`;
      if (!existing) {
        ctx.step('+', kind, name, [{ field: 'role', to: grant.role }], [{ route: route('inviteTo', object.kind), params, body: { role: grant.role, users: [grant.user] } }]);
        return;
      }
      kept.add(existing);
      if (existing.role !== grant.role) {
        ctx.step('~', kind, name, [{ field: 'role', from: existing.role, to: grant.role }], [
          { route: route('updateUserPermissionIn', object.kind), params: { ...params, userId: existing.id }, body: { role: grant.role } },
        ]);
      }
      return;
    }
    const teamId = ctx.need(`team:${grant.team}`, [...here, 'team'], `team "${grant.team}"`, 'add it to teams, or fix the title');
    const existing = typeof teamId === 'string' ? current.find((c) => c.principal === 'team' && c.id === teamId) : undefined;
    const name = `${object.name}: team ${grant.team}`;
    if (!existing) {
      ctx.step('+', kind, name, [{ field: 'role', to: grant.role }], [{ route: route('inviteTo', object.kind), params, body: { role: grant.role, teams: [teamId] } }]);
      return;
    }
    kept.add(existing);
    if (existing.role !== grant.role) {
      ctx.step('~', kind, name, [{ field: 'role', from: existing.role, to: grant.role }], [
        { route: route('updateTeamPermissionIn', object.kind), params: { ...params, teamId: existing.id }, body: { role: grant.role } },
      ]);
    }
  });
  if (!ctx.prune) return;
  for (const grant of current.filter((c) => !kept.has(c))) {
    const remove = grant.principal === 'user' ? route('removeUserFrom', object.kind) : route('removeTeamFrom', object.kind);
    ctx.step('-', kind, `${object.name}: ${holder(grant)}`, [{ field: 'role', from: grant.role }], [
      { route: remove, params: { ...params, [grant.principal === 'user' ? 'userId' : 'teamId']: grant.id } },
    ]);
  }
}

/** The file's form of an object's grants (export): users by e-mail, teams by title; what it cannot name is reported. */
export function fileGrants(grants: readonly CurrentGrant[], sharedTeamTitle: (title: string) => boolean, skip: (why: string) => void): FilePermission[] {
  const out: FilePermission[] = [];
  for (const grant of grants) {
    if (grant.principal === 'user') {
      if (grant.name) out.push({ user: grant.name, role: grant.role as FilePermission['role'] });
      else skip(`user ${grant.id} has no e-mail`);
    } else if (sharedTeamTitle(grant.name)) skip(`team "${grant.name}" shares its title with another team`);
    else out.push({ team: grant.name, role: grant.role as FilePermission['role'] });
  }
  return out;
}
