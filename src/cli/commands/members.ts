/** `docsctl member …` (API doc §4.17), declared with the routes (src/api/routes/members.ts): USER is a user id or an e-mail. */
import { ApiError } from '../../api/errors.js';
import type { RawInput } from '../../api/validate.js';
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';
import { guestIsNull } from './orgs.js';

interface MemberItem {
  id: string;
  user?: { email?: string };
}

/**
 * The user id of a member given by id or e-mail: an e-mail is looked up with the
 * members search (so it works against any /v1 server); 404 when no member has it.
 */
export async function memberId(session: Session, organizationId: string, ref: string): Promise<string> {
  if (!ref.includes('@')) return ref;
  const transport = await session.transport();
  const wanted = ref.trim().toLowerCase();
  let page: string | undefined;
  do {
    const { body } = await transport.request('listMembersInOrganizationById', {
      params: { organizationId },
      query: { search: ref.trim(), limit: 1000, ...(page ? { page } : {}) },
    });
    const list = body as { items?: MemberItem[]; next?: { page?: string } };
    const found = list.items?.find((item) => item.user?.email?.toLowerCase() === wanted);
    if (found) return found.id;
    page = list.next?.page;
  } while (page);
  throw new ApiError(404, `No member of organization ${organizationId} has the e-mail ${ref}`, {
    hint: 'run "docsctl member list --search TEXT" to find them, or "docsctl member invite" to add them',
  });
}

/** Replaces an e-mail in params.userId by the member's id. */
async function resolveUserParam(session: Session, input: RawInput): Promise<void> {
  const params = input.params as Record<string, string>;
  params.userId = await memberId(session, params.organizationId as string, params.userId as string);
}

export const hooks = {
  'member get': { resolve: resolveUserParam },
  'member edit': { build: guestIsNull('role'), resolve: resolveUserParam },
  'member remove': { resolve: resolveUserParam },
  'member spaces': { resolve: resolveUserParam },
  'member teams': { resolve: resolveUserParam },
  'member sso': { resolve: resolveUserParam },
} satisfies Hooks;
