/**
 * The content area: every handler of the `change-requests` and `content` route
 * modules. Two handlers written here serve routes of other modules and are
 * reached through those areas (handler-registry.ts `borrowed`): `listSpaceLinks` (spaces)
 * and `listChangeRequestsForOrganization` (orgs-extra). Heavy dependencies (merge,
 * Git Sync conversion, zip, links, PDF) are imported by the handlers that use
 * them, when they run.
 */
import type { Handler } from '../handler.js';
import { changeRequestHandlers } from './change-requests.js';
import { importHandlers } from './import.js';
import { linkHandlers } from './links.js';
import { pageEditHandlers } from './page-edit.js';
import { pdfHandlers } from './pdf.js';
import { revisionHandlers } from './revisions.js';

const BORROWED = new Set(['listSpaceLinks', 'listChangeRequestsForOrganization']);

const all: Record<string, Handler> = {
  ...revisionHandlers,
  ...changeRequestHandlers,
  ...importHandlers,
  ...linkHandlers,
  ...pageEditHandlers,
  ...pdfHandlers,
};

export const contentHandlers: Readonly<Record<string, Handler>> = Object.fromEntries(
  Object.entries(all).filter(([id]) => !BORROWED.has(id)),
);

export const borrowedHandlers: Readonly<Record<string, Handler>> = Object.fromEntries(
  Object.entries(all).filter(([id]) => BORROWED.has(id)),
);
