/**
 * `getApiInformation`: which docsctl answers, in any mode (no organization, any caller); and
 * `getSubdomain`: which organization a `<hostname>.gitbook.io` subdomain belongs to (the hostname
 * an organization sets with updateOrganizationById, kept unique in `orgsByHostname`).
 */
import { notFound } from '../api/errors.js';
import type * as routes from '../api/routes/system.js';
import { BUILD, VERSION } from '../version.js';
import { Tables, getOrg } from './core-records.js';
import { type Handler, implementer } from './handler.js';

const on = implementer<typeof routes>();

export const systemHandlers: Record<string, Handler> = {
  ...on('getApiInformation', () => ({ version: VERSION, build: BUILD })),

  ...on('getSubdomain', (ctx, { params }) => {
    const subdomain = params.subdomain.toLowerCase();
    const orgId = ctx.tx.get<string>(Tables.orgsByHostname, subdomain);
    if (orgId === undefined || !getOrg(ctx.tx, orgId)) {
      throw notFound(`No organization has the subdomain "${params.subdomain}": an organization takes one with "docsctl org edit ORG --hostname NAME"`);
    }
    return {
      object: 'subdomain' as const,
      subdomain,
      target: { type: 'organization' as const, organization: orgId },
      // A hostname answers as soon as it is set: docsctl has no DNS step to wait for.
      isActive: true,
    };
  }),
};
