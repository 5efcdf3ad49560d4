/**
 * `docsctl team members sync TEAM --file FILE|-`: makes a team's membership
 * exactly the declared list, with one batch request (planned by src/cli/commands/team-sync-plan.ts).
 *
 * People not yet in the team are checked before anything changes: without
 * --invite, one that is not a member of the organization fails the whole sync
 * (exit 4, listing them) — the server refuses the batch as a whole, and a dry run
 * looks them up first. With --invite they are invited (one request), then added.
 */
import type { Command } from 'commander';
import { ApiError, UsageError } from '../../api/errors.js';
import { idOf, resolveOrganization } from '../operation.js';
import { readTextInput } from '../io.js';
import type { Session } from '../session.js';
import { memberId } from './members.js';
import { type Current, type Plan, type TeamRole, batchBody, parseSyncFile, planSync, summarize } from './team-sync-plan.js';

interface SyncOptions {
  file: string;
  dryRun?: boolean;
  role: string;
  invite?: boolean;
  org?: string;
}

interface TeamMemberItem {
  organization: { id: string; user?: { email?: string } };
  team: { role: TeamRole };
}

async function currentMembers(session: Session, organizationId: string, teamId: string): Promise<Current[]> {
  const transport = await session.transport();
  const members: Current[] = [];
  let page: string | undefined;
  do {
    const { body } = await transport.request('listTeamMembersInOrganizationById', {
      params: { organizationId, teamId },
      query: { limit: 1000, ...(page ? { page } : {}) },
    });
    const list = body as { items?: TeamMemberItem[]; next?: { page?: string } };
    for (const item of list.items ?? []) {
      members.push({ id: item.organization.id, email: item.organization.user?.email, role: item.team.role });
    }
    page = list.next?.page;
  } while (page);
  return members;
}

/** The additions that are not members of the organization (looked up one by one: a dry run changes nothing). */
async function nonMembers(session: Session, organizationId: string, plan: Plan): Promise<string[]> {
  const transport = await session.transport();
  const missing: string[] = [];
  for (const step of plan.steps) {
    if (step.op !== '+') continue;
    try {
      const id = await memberId(session, organizationId, step.user);
      if (id === step.user) await transport.request('getMemberInOrganizationById', { params: { organizationId, userId: id } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) missing.push(step.user);
      else throw error;
    }
  }
  return missing;
}

function notMembersError(organizationId: string, people: string[]): ApiError {
  return new ApiError(404, `Not members of organization ${organizationId}: ${people.join(', ')}; nothing was changed`, {
    hint: 'pass --invite to invite them first, or fix the file',
  });
}

async function printPlan(session: Session, plan: Plan, dryRun: boolean): Promise<void> {
  const totals = summarize(plan);
  if (session.format === 'json' || session.format === 'yaml') {
    await session.printObject({ ...totals, dryRun, changes: plan.steps }, []);
  } else if (plan.steps.length > 0) {
    await session.printList(plan.steps, [
      { header: 'OP', get: (item) => item.op },
      { header: 'USER', get: (item) => item.user },
      { header: 'ROLE', get: (item) => (item.from ? `${String(item.from)} → ${String(item.role)}` : item.role) },
    ]);
  }
  const counts = `${totals.added} added, ${totals.removed} removed, ${totals.changed} changed, ${totals.unchanged} unchanged`;
  if (plan.steps.length === 0) await session.info(`Nothing to change: the team already matches the file (${totals.unchanged} members)`);
  else await session.info(dryRun ? `Dry run, nothing changed: would be ${counts}` : counts);
}

export function registerTeamSync(membersGroup: Command, getSession: (command: Command) => Session): void {
  membersGroup
    .command('sync')
    .description("Make a team's members exactly the people listed in a file, in one batch update")
    .argument('<teamId>', 'team id or title')
    .requiredOption('--file <file>', 'one e-mail or user id per line, optionally with a team role; or a JSON array; - for stdin')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--role <role>', 'team role of lines that name none: member or owner', 'member')
    .option('--invite', 'invite people who are not members of the organization yet (instead of failing)')
    .option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)')
    .addHelpText(
      'after',
      `
File format:
  # comments and blank lines are ignored
  ada@acme.io owner
  grace@acme.io
  3kQ9xUserId member
or: [{"email": "ada@acme.io", "role": "owner"}, {"user": "3kQ9xUserId"}]

Examples:
  $ docsctl team members sync t3am1d --file engineering.txt --dry-run
  $ docsctl team members sync t3am1d --file engineering.txt --json | jq .added
  $ ldap-export engineering | docsctl team members sync t3am1d --file - --invite
`,
    )
    .action(async (team: string, options: SyncOptions, command: Command) => {
      const session = getSession(command);
      if (options.role !== 'member' && options.role !== 'owner') {
        throw new UsageError(`--role expects member or owner, got "${options.role}"`);
      }
      const source = options.file === '-' ? 'stdin' : options.file;
      const wanted = parseSyncFile(await readTextInput(session.ctx.io.in, options.file, '--file'), source, options.role);
      const organizationId = await resolveOrganization(session, options.org);
      const teamId = await idOf(session, 'teamId', team, { organizationId });
      const plan = planSync(wanted, await currentMembers(session, organizationId, teamId));
      const dryRun = Boolean(options.dryRun);
      const adds = plan.steps.filter((step) => step.op === '+').map((step) => step.user);
      if (dryRun) {
        const missing = options.invite ? [] : await nonMembers(session, organizationId, plan);
        if (missing.length > 0) throw notMembersError(organizationId, missing);
        await printPlan(session, plan, true);
        return;
      }
      if (plan.steps.length > 0) {
        const transport = await session.transport();
        const emails = adds.filter((ref) => ref.includes('@'));
        if (options.invite && emails.length > 0) {
          await transport.request('inviteUsersToOrganization', { params: { organizationId }, body: { emails } });
        }
        try {
          await transport.request('updateMembersInOrganizationTeam', { params: { organizationId, teamId }, body: batchBody(plan) });
        } catch (error) {
          // The batch is all or nothing: a 404 for people who are not members changed nothing.
          if (error instanceof ApiError && error.status === 404 && /^Not members of organization/.test(error.message)) {
            throw new ApiError(404, `${error.message.replace(/; invite them first$/, '')}; nothing was changed`, {
              hint: 'pass --invite to invite them first, or fix the file',
            });
          }
          throw error;
        }
      }
      await printPlan(session, plan, false);
    });
}
