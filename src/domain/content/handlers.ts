/**
 * The content area: every handler of the `change-requests` and `content` route
 * modules. One handler written here serves a route of another module and is
 * reached through that area (handler-registry.ts `borrowed`): `listSpaceLinks` (spaces). Heavy dependencies (merge,
 * Git Sync conversion, zip, links, PDF) are imported by the handlers that use
 * them, when they run.
 */
import type { Handler } from '../handler.js';
import { contentByUrlHandlers } from './by-url.js';
import { changeRequestHandlers } from './change-requests.js';
import { crCreateHandlers } from './cr-create.js';
import { importHandlers } from './import.js';
import { linkHandlers } from './links.js';
import { pageEditHandlers } from './page-edit.js';
import { pdfHandlers } from './pdf.js';
import { revisionHandlers } from './revisions.js';

const BORROWED = new Set(['listSpaceLinks']);

const all: Record<string, Handler> = {
  ...revisionHandlers,
  ...contentByUrlHandlers,
  ...changeRequestHandlers,
  ...crCreateHandlers,
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
