/** `docsctl sso …`: an organization's SAML SSO providers (API doc §4.14), declared with the routes (src/api/routes/sso.ts); the certificate file here. */
import type { RawInput } from '../../api/validate.js';
import { readTextInput } from '../io.js';
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';

const body = (input: RawInput) => {
  input.body ??= {};
  return input.body as Record<string, unknown>;
};
const buildSaml = async (options: Record<string, unknown>, input: RawInput, session: Session) => {
  if (typeof options.certificateFile === 'string') {
    body(input).certificate = await readTextInput(session.ctx.io.in, options.certificateFile, '--certificate-file');
  }
  if (input.body && (input.body as Record<string, unknown>).defaultRole === 'guest') body(input).defaultRole = null;
};

const certificateFlag = [{ flags: '--certificate-file <file>', description: "the identity provider's PEM X.509 certificate (- for stdin)" }];

export const hooks = {
  'sso create': { flags: certificateFlag, build: buildSaml },
  'sso edit': { flags: certificateFlag, build: buildSaml },
} satisfies Hooks;
