/**
 * Generates the `team members sync` benchmark: an organization of MEMBERS members
 * and a team of TEAM of them, plus two sync files of TEAM lines that differ from
 * each other by 100 changes (40 removed, 40 added, 20 role changes), so running
 * them alternately changes 100 memberships each time.
 * Usage (bundled by bench/run.mjs): node generate-teams.mjs DIR MEMBERS TEAM
 * Prints JSON: {organizationId, teamId, token, files: [a, b], seconds}.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from '../src/domain/bootstrap.js';
import { addMember, ensureUser, orgMemberList } from '../src/domain/core-records.js';
import { TEAMS, type TeamRecord, orgTeams, putTeamMember } from '../src/domain/teams-records.js';
import { createStore } from '../src/store/index.js';
import { systemClock } from '../src/util/clock.js';
import { randomIds } from '../src/util/ids.js';

const [dir, membersArg, teamArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: generate-teams DIR MEMBERS TEAM');
const members = Number(membersArg ?? 10_000);
const teamSize = Number(teamArg ?? 2_000);

const started = Date.now();
const store = createStore(join(dir, 'store'), { durable: false });
const ids = randomIds();
const clock = systemClock;
const { organization, token } = await store.transact((tx) =>
  bootstrap(tx, { organizationTitle: 'Bench', userName: 'Bench', email: 'bench@example.com', clock, ids, origin: 'http://127.0.0.1:4000' }),
);
const emails = Array.from({ length: members }, (_, i) => `user${String(i).padStart(5, '0')}@bench.example`);
// Members in batches of 1,000 per commit (one commit per member would take minutes).
for (let start = 0; start < members; start += 1000) {
  await store.transact((tx) => {
    const now = clock().toISOString();
    for (const email of emails.slice(start, start + 1000)) {
      const { user } = ensureUser(tx, { email }, ids, now);
      addMember(tx, organization.id, user.id, { role: 'read', joinedAt: now, sso: false, disabled: false });
    }
  });
}
const team: TeamRecord = { id: ids(), organization: organization.id, title: 'Engineering', createdAt: clock().toISOString() };
await store.transact((tx) => {
  tx.put(TEAMS, team.id, team);
  orgTeams.insert(tx, organization.id, team.id, null);
  const userIds = orgMemberList.head(tx, organization.id, teamSize + 1).map((entry) => entry.id);
  for (const userId of userIds.slice(1)) putTeamMember(tx, team, userId, 'member'); // skip the admin
});
await store.close();

// File A: the team as generated. File B: 40 removed, 40 added (not yet in the team), 20 made owners.
const inTeam = emails.slice(0, teamSize);
const fileA = inTeam.map((email) => `${email} member`);
const fileB = [
  ...inTeam.slice(40).map((email, i) => `${email} ${i < 20 ? 'owner' : 'member'}`),
  ...emails.slice(teamSize, teamSize + 40).map((email) => `${email} member`),
];
const files = [join(dir, 'team-a.txt'), join(dir, 'team-b.txt')];
writeFileSync(files[0] as string, `# generated\n${fileA.join('\n')}\n`);
writeFileSync(files[1] as string, `# generated\n${fileB.join('\n')}\n`);
process.stdout.write(`${JSON.stringify({ organizationId: organization.id, teamId: team.id, token, files, seconds: (Date.now() - started) / 1000 })}\n`);
