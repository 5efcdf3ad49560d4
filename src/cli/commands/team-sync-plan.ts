/**
 * `team members sync`: the declared membership of a team (a file) against its
 * current members → the plan (add, remove, role change) and the one batch
 * update that applies it. Pure: parsing and diffing, no I/O.
 *
 * File format: one user per line, an e-mail or a user id, optionally followed by
 * a team role (`alice@acme.io owner`); `#` starts a comment; blank lines are
 * ignored. Or a JSON array of `{ "email" | "user", "role"? }`.
 */
import { UsageError } from '../../api/errors.js';

export type TeamRole = 'owner' | 'member';
const TEAM_ROLES: readonly string[] = ['owner', 'member'];

export interface Wanted {
  /** As written: an e-mail or a user id. */
  ref: string;
  role: TeamRole;
  /** 1-based line (or array index + 1 for JSON), for messages. */
  line: number;
}

export interface Current {
  id: string;
  email?: string | undefined;
  role: TeamRole;
}

export interface PlanStep {
  op: '+' | '-' | '~';
  /** E-mail when known, else the id or reference. */
  user: string;
  /** User id when known (members being removed or changed). */
  id?: string;
  role: TeamRole;
  /** The previous role of a change. */
  from?: TeamRole;
}

export interface Plan {
  steps: PlanStep[];
  unchanged: number;
}

function checkRole(value: unknown, where: string): TeamRole {
  if (typeof value === 'string' && TEAM_ROLES.includes(value)) return value as TeamRole;
  throw new UsageError(`${where}: invalid team role "${String(value)}"`, { hint: 'use owner or member' });
}

const key = (ref: string) => (ref.includes('@') ? ref.toLowerCase() : ref);

/** Parses a sync file; `defaultRole` applies to entries without one. Duplicates are a usage error naming the lines. */
export function parseSyncFile(text: string, source: string, defaultRole: TeamRole): Wanted[] {
  const trimmed = text.trimStart();
  const entries: Wanted[] = [];
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${source}: invalid JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`${source}: expected a JSON array of {email|user, role}`);
    parsed.forEach((item, index) => {
      const where = `${source} item ${index + 1}`;
      if (typeof item !== 'object' || item === null) throw new UsageError(`${where}: expected an object {email|user, role}`);
      const record = item as Record<string, unknown>;
      const ref = record.email ?? record.user;
      if (typeof ref !== 'string' || ref.trim() === '') throw new UsageError(`${where}: needs "email" or "user"`);
      entries.push({ ref: ref.trim(), role: record.role === undefined ? defaultRole : checkRole(record.role, where), line: index + 1 });
    });
  } else {
    text.split(/\r?\n/).forEach((raw, index) => {
      const line = raw.replace(/#.*$/, '').trim();
      if (line === '') return;
      const words = line.split(/\s+/);
      const where = `${source}:${index + 1}`;
      if (words.length > 2) throw new UsageError(`${where}: expected "EMAIL-OR-ID [owner|member]", got "${line}"`);
      entries.push({ ref: words[0] as string, role: words[1] === undefined ? defaultRole : checkRole(words[1], where), line: index + 1 });
    });
  }
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  for (const entry of entries) {
    const first = seen.get(key(entry.ref));
    if (first !== undefined) duplicates.push(`${entry.ref} (lines ${first} and ${entry.line})`);
    else seen.set(key(entry.ref), entry.line);
  }
  if (duplicates.length > 0) {
    throw new UsageError(`${source}: listed twice: ${duplicates.slice(0, 10).join(', ')}${duplicates.length > 10 ? ', …' : ''}`, {
      hint: 'keep one line per person',
    });
  }
  return entries;
}

/** The steps that make `current` equal to `wanted`, in file order then removals. */
export function planSync(wanted: readonly Wanted[], current: readonly Current[]): Plan {
  const byRef = new Map<string, Current>();
  for (const member of current) {
    byRef.set(member.id, member);
    if (member.email) byRef.set(member.email.toLowerCase(), member);
  }
  const kept = new Set<string>();
  const steps: PlanStep[] = [];
  let unchanged = 0;
  for (const entry of wanted) {
    const member = byRef.get(key(entry.ref));
    if (!member || kept.has(member.id)) {
      // Not in the team (an id and an e-mail of the same person would land here twice: the server dedupes).
      if (!member) steps.push({ op: '+', user: entry.ref, role: entry.role });
      continue;
    }
    kept.add(member.id);
    if (member.role === entry.role) unchanged += 1;
    else steps.push({ op: '~', user: member.email ?? member.id, id: member.id, role: entry.role, from: member.role });
  }
  for (const member of current) {
    if (!kept.has(member.id)) steps.push({ op: '-', user: member.email ?? member.id, id: member.id, role: member.role });
  }
  return { steps, unchanged };
}

/** The body of the one `updateMembersInOrganizationTeam` request that applies a plan. */
export function batchBody(plan: Plan): { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamRole }> } {
  const add: string[] = [];
  const remove: string[] = [];
  const memberships: Record<string, { role: TeamRole }> = {};
  for (const step of plan.steps) {
    if (step.op === '+') {
      add.push(step.user);
      if (step.role !== 'member') memberships[step.user] = { role: step.role };
    } else if (step.op === '-') remove.push(step.id as string);
    else memberships[step.id as string] = { role: step.role };
  }
  return {
    ...(add.length ? { add } : {}),
    ...(remove.length ? { remove } : {}),
    ...(Object.keys(memberships).length ? { memberships } : {}),
  };
}

export function summarize(plan: Plan): { added: number; removed: number; changed: number; unchanged: number } {
  const count = (op: PlanStep['op']) => plan.steps.filter((step) => step.op === op).length;
  return { added: count('+'), removed: count('-'), changed: count('~'), unchanged: plan.unchanged };
}
