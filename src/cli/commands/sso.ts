/** `docsctl sso …`: an organization's SAML SSO providers (API doc §4.14). */
import type { RawInput } from '../../api/validate.js';
import { readTextInput } from '../io.js';
import { type OperationCommandSpec } from '../operation.js';
import type { Session } from '../session.js';

const ROLES_OR_GUEST = ['admin', 'create', 'edit', 'review', 'comment', 'read', 'guest'] as const;
const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};

const providerArg = [{ name: 'samlProviderId', description: 'SAML provider id' }];
const samlFlags = [
  { flags: '--sso-url <url>', description: "the identity provider's SSO URL", to: 'body.ssoURL' },
  { flags: '--entity-id <id>', description: "the identity provider's entity id", to: 'body.entityID' },
  { flags: '--certificate-file <file>', description: "the identity provider's PEM X.509 certificate (- for stdin)" },
  { flags: '--default-team <teamId>', description: 'team new SSO members join', to: 'body.defaultTeam' },
  { flags: '--default-role <role>', description: 'role of new SSO members', to: 'body.defaultRole', choices: ROLES_OR_GUEST, nullAs: 'guest' },
];
const buildSaml = async (options: Record<string, unknown>, input: RawInput, session: Session) => {
  if (typeof options.certificateFile === 'string') {
    body(input).certificate = await readTextInput(session.ctx.io.in, options.certificateFile, '--certificate-file');
  }
  if (input.body && (input.body as Record<string, unknown>).defaultRole === 'guest') body(input).defaultRole = null;
};

export const ssoCommands: OperationCommandSpec[] = [
  {
    command: 'sso list',
    route: 'listSAMLProvidersInOrganizationById',
    summary: 'List the SAML providers of an organization (admin)',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso list'],
  },
  {
    command: 'sso get',
    route: 'getOrganizationSAMLProviderById',
    summary: 'Show a SAML provider, with the service URLs to give the identity provider (admin)',
    args: providerArg,
    org: true,
    output: 'object',
    columns: 'samlProvider',
    examples: ['docsctl sso get s4ml --json | jq .service'],
  },
  {
    command: 'sso create',
    route: 'createOrganizationSAMLProvider',
    summary: 'Add a SAML provider (admin)',
    org: true,
    flags: [{ flags: '--label <label>', description: 'label on the login page (1 to 30)', to: 'body.label', required: true }, ...samlFlags],
    build: buildSaml,
    output: 'object',
    columns: 'samlProvider',
    examples: [
      'docsctl sso create --label Okta --sso-url https://acme.okta.com/app/sso/saml --entity-id http://www.okta.com/exk1 --certificate-file okta.pem',
    ],
  },
  {
    command: 'sso edit',
    route: 'updateOrganizationSAMLProvider',
    summary: 'Change a SAML provider (admin)',
    args: providerArg,
    org: true,
    flags: [{ flags: '--label <label>', description: 'label on the login page (1 to 30)', to: 'body.label' }, ...samlFlags],
    build: buildSaml,
    nonEmptyBody: 'Nothing to change: pass --label, --sso-url, --entity-id, --certificate-file, --default-team or --default-role',
    output: 'object',
    columns: 'samlProvider',
    examples: ['docsctl sso edit s4ml --certificate-file rotated.pem'],
  },
  {
    command: 'sso delete',
    route: 'deleteOrganizationSAMLProvider',
    summary: 'Remove a SAML provider (admin)',
    aliases: ['rm'],
    args: providerArg,
    org: true,
    confirm: (input) => `Remove SAML provider ${input.params?.samlProviderId}? Its users can no longer sign in with it.`,
    output: 'delete',
    columns: 'samlProvider',
    noun: 'SAML provider',
    examples: ['docsctl sso delete s4ml --yes'],
  },
  {
    command: 'sso logins',
    route: 'listSSOProviderLoginsInOrganization',
    summary: 'List the SSO login options of an organization',
    org: true,
    output: 'list',
    columns: 'ssoLogin',
    noun: 'SSO login',
    examples: ['docsctl sso logins --format tsv'],
  },
];
