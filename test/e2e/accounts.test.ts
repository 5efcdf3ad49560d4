/**
 * Accounts through the built binary, in both modes (a local store, and `docsctl serve`
 * over HTTP): `org create|join`, `user create|edit`, `token create|list|revoke` are
 * operations like every other, with the role their routes declare. A token created
 * over HTTP then works; a caller without the role gets 403 (exit 3), another user's
 * token id is "not found" (exit 4); nothing is half-written.
 */
import { expect, it } from 'vitest';
import { describeInBothModes } from '../helpers/binary.js';

describeInBothModes('org, user and token commands', (context) => {
  const cli = () => context.cli;
  /** Runs as the user `token` belongs to (instead of the store's owner). */
  const as = (token: string, args: string[]) => cli().run(args, { env: { DOCSCTL_TOKEN: token } });

  let ciToken = '';
  let ciId = '';

  it('user create: a member of an organization with a role; token create --user: a token that acts as them', async () => {
    const user = await cli().run(['user', 'create', '--email', 'ci@acme.io', '--name', 'CI', '--org', cli().orgId, '--role', 'edit', '--json']);
    expect(user.exitCode, user.stderr).toBe(0);
    const created = JSON.parse(user.stdout) as { id: string };
    expect(created).toMatchObject({ object: 'user', displayName: 'CI', email: 'ci@acme.io', organization: cli().orgId, role: 'edit' });
    ciId = created.id;
    const tsv = await cli().run(['user', 'create', '--email', 'loner@acme.io', '--format', 'tsv']);
    expect(tsv.stdout).toMatch(/^\w+\tloner\tloner@acme\.io\t$/);

    const token = await cli().run(['token', 'create', '--user', 'ci@acme.io', '--label', 'ci', '--format', 'ids']);
    expect(token.exitCode, token.stderr).toBe(0);
    ciToken = token.stdout.trim();
    expect(ciToken).toMatch(/^gb_api_\w{40}$/);
    const me = await as(ciToken, ['user', 'me', '--format', 'tsv']);
    expect(me.stdout).toBe(`${ciId}\tCI\tci@acme.io`);
  });

  it('token list shows ids and labels, never the tokens; --user is for the store owner', async () => {
    const own = await as(ciToken, ['token', 'list', '--format', 'tsv']);
    expect(own.exitCode, own.stderr).toBe(0);
    expect(own.stdout).toMatch(new RegExp(`^[0-9a-f]{16}\\tci\\t${ciId}\\t\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`));
    expect(own.stdout).not.toContain('gb_api_');
    const byOwner = await cli().run(['token', 'list', '--user', 'ci@acme.io', '--format', 'tsv']);
    expect(byOwner.stdout).toBe(own.stdout);
    const refused = await as(ciToken, ['token', 'list', '--user', 'admin@example.com']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toMatch(/^error: Only the store's owner may call listTokensForUser for another user/);
  });

  it("refuses what the caller's role does not allow, with 403 (exit 3), writing nothing", async () => {
    const addUser = await as(ciToken, ['user', 'create', '--email', 'x@acme.io', '--org', cli().orgId]);
    expect(addUser.exitCode).toBe(3);
    expect(addUser.stderr).toMatch(/You need the "admin" role or higher in organization \w+ to call createUserInOrganization \(your role: edit\)/);
    const loner = await as(ciToken, ['user', 'create', '--email', 'y@acme.io']);
    expect(loner.exitCode).toBe(3);
    expect(loner.stderr).toMatch(/store's owner/);
    const forOther = await as(ciToken, ['token', 'create', '--user', 'loner@acme.io']);
    expect(forOther.exitCode).toBe(3);
    const members = await cli().ok(['member', 'list', '--format', 'tsv']);
    expect(members).not.toMatch(/x@acme\.io|y@acme\.io/);
    const ownerTokens = await cli().ok(['token', 'list', '--format', 'ids']);
    const hidden = await as(ciToken, ['token', 'revoke', ownerTokens.split('\n')[0] as string]);
    expect(hidden.exitCode).toBe(4);
    expect(hidden.stderr).toMatch(/^error: Token [0-9a-f]{16} not found \(see "docsctl token list"\)/);
  });

  it('token create for oneself; revoked, a token stops working at once', async () => {
    const created = await as(ciToken, ['token', 'create', '--label', 'laptop', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const laptop = JSON.parse(created.stdout) as { id: string; token: string };
    expect(laptop).toMatchObject({ label: 'laptop', user: ciId });
    expect((await as(laptop.token, ['user', 'me', '--format', 'ids'])).stdout).toBe(ciId);
    const revoked = await as(ciToken, ['token', 'revoke', laptop.id]);
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain(`Revoked token ${laptop.id} (laptop) of ${ciId}`);
    const after = await as(laptop.token, ['user', 'me']);
    expect(after.exitCode).toBe(3);
  });

  it('org create makes the caller admin of a new organization (any user); org join by e-mail domain', async () => {
    const created = await as(ciToken, ['org', 'create', '--title', 'Partners', '--email-domains', 'acme.io', '--format', 'ids']);
    expect(created.exitCode, created.stderr).toBe(0);
    const orgId = created.stdout.trim();
    const orgs = await as(ciToken, ['org', 'list', '--format', 'tsv']);
    expect(orgs.stdout).toContain(`${orgId}\tPartners`);
    const bad = await as(ciToken, ['org', 'create', '--title', 'X']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('error: Invalid organization title: it must be 2 to 255 characters long');

    const lonerToken = await cli().ok(['token', 'create', '--user', 'loner@acme.io', '--format', 'ids']);
    const joined = await as(lonerToken, ['org', 'join', orgId]);
    expect(joined.exitCode, joined.stderr).toBe(0);
    expect((await as(lonerToken, ['org', 'list', '--format', 'ids'])).stdout).toBe(orgId);
    const refused = await as(lonerToken, ['org', 'join', cli().orgId]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^error: Your e-mail domain "acme\.io" is not one of organization \w+'s e-mail domains/);
  });

  it('user edit changes one’s own name; another user’s only as the store owner', async () => {
    const edited = await as(ciToken, ['user', 'edit', ciId, '--name', 'CI bot', '--format', 'tsv']);
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(edited.stdout).toBe(`${ciId}\tCI bot\tci@acme.io`);
    const owner = (await cli().ok(['user', 'me', '--format', 'ids'])).trim();
    const refused = await as(ciToken, ['user', 'edit', owner, '--name', 'Nope']);
    expect(refused.exitCode).toBe(3);
    expect(await cli().ok(['user', 'edit', ciId, '--name', 'CI', '--format', 'tsv'])).toBe(`${ciId}\tCI\tci@acme.io`);
  });

  it('user create --role without --org makes the user a member of the only organization; a bad role is a usage error', async () => {
    const user = await cli().run(['user', 'create', '--email', 'reader@acme.io', '--role', 'read', '--json']);
    expect(user.exitCode, user.stderr).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ email: 'reader@acme.io', organization: cli().orgId, role: 'read' });
    const members = await cli().ok(['member', 'list', '--format', 'tsv']);
    expect(members).toMatch(/reader@acme\.io.*\bread\b/);
    const bad = await cli().run(['user', 'create', '--email', 'z@acme.io', '--role', 'owner']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/'owner' is invalid\. Allowed choices are admin, create, edit, review, comment, read, guest/);
    // The CI user belongs to two organizations (Acme, and Partners it created): --org is needed.
    const several = await as(ciToken, ['user', 'create', '--email', 'two@acme.io', '--role', 'read']);
    expect(several.exitCode).toBe(2);
    expect(several.stderr).toMatch(/^error: You belong to several organizations: pass --org ID/);
  });

  it('a known e-mail is a conflict (exit 5); a malformed token id a usage error (exit 2)', async () => {
    const again = await cli().run(['user', 'create', '--email', 'ci@acme.io']);
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toMatch(/^error: A user with the e-mail ci@acme\.io already exists \(\w+\); use "member invite"/);
    const malformed = await cli().run(['token', 'revoke', '0123']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toMatch(/^error: Invalid token id "0123": pass the ID column of "docsctl token list" \(16 hex characters\)/);
  });
});
