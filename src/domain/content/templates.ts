/**
 * `applyTemplateToSpace`: a space template's pages added to a space's content, or to
 * one of its change requests (`changeRequestId`).
 *
 * docsctl's templates are built in (GitBook's are its own): each is a small Git Sync
 * tree (SUMMARY.md and Markdown pages), imported as `importContent` imports (a page at
 * the path of an existing page updates it, the others are added at the end; nothing
 * is removed). A template names the content references it takes (`params.contentRefs`):
 * each `{{ref:NAME}}` in its pages becomes the reference's link (a URL, an app link to
 * a space, a collection or a page, a user's name), checked against the organization
 * (404 for a space, collection, page or user that is not there); a reference the
 * template does not take is a 400 naming those it does; one not given leaves the
 * template's own text.
 */
import { badRequest, notFound } from '../../api/errors.js';
import { walkPages } from '../../content-model/model.js';
import type { RepoSnapshot } from '../../gitsync/types.js';
import type { StoreReader } from '../../store/types.js';
import { getCollection, getSpace, getUser } from '../core-records.js';
import { primaryRevision } from './common.js';
import { openContent } from './storage.js';

interface Template {
  title: string;
  /** The references it takes: name → what it is for, and its text when not given. */
  refs: Record<string, { about: string; fallback: string }>;
  files: Record<string, string>;
}

const TEMPLATES: Record<string, Template> = {
  'product-docs': {
    title: 'Product documentation',
    refs: { product: { about: "the product's website", fallback: 'the product' } },
    files: {
      'README.md': '# Overview\n\nWhat {{ref:product}} does, who it is for, and where to start.\n\n## Jump right in\n\n* [Quickstart](getting-started/quickstart.md)\n* [Installation](getting-started/installation.md)\n',
      'getting-started/quickstart.md': '# Quickstart\n\nGet {{ref:product}} running in five minutes.\n\n## Step 1: sign up\n\n## Step 2: first project\n',
      'getting-started/installation.md': '# Installation\n\nRequirements, then the install steps for each platform.\n',
      'guides/first-guide.md': '# Your first guide\n\nA task, step by step, from start to finish.\n',
      'SUMMARY.md':
        '# Table of contents\n\n* [Overview](README.md)\n\n## Getting started\n\n* [Quickstart](getting-started/quickstart.md)\n* [Installation](getting-started/installation.md)\n\n## Guides\n\n* [Your first guide](guides/first-guide.md)\n',
    },
  },
  'api-reference': {
    title: 'API reference',
    refs: { api: { about: "the API's base URL or its OpenAPI document", fallback: 'the API' } },
    files: {
      'README.md': '# API reference\n\nEverything {{ref:api}} offers, endpoint by endpoint.\n',
      'authentication.md': '# Authentication\n\nHow to get a token and send it with each request to {{ref:api}}.\n',
      'errors.md': '# Errors\n\nStatus codes, the error body, and what to do about each.\n',
      'changelog.md': '# Changelog\n\nWhat changed in each version.\n',
      'SUMMARY.md': '# Table of contents\n\n* [API reference](README.md)\n* [Authentication](authentication.md)\n* [Errors](errors.md)\n* [Changelog](changelog.md)\n',
    },
  },
  'knowledge-base': {
    title: 'Knowledge base',
    refs: { support: { about: 'where readers ask for help', fallback: 'support' } },
    files: {
      'README.md': '# Knowledge base\n\nAnswers to common questions. Still stuck? Contact {{ref:support}}.\n',
      'faq.md': '# FAQ\n\n## How do I reset my password?\n\n## Where are my invoices?\n',
      'troubleshooting.md': '# Troubleshooting\n\nSymptoms, causes and fixes. Contact {{ref:support}} when none fits.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Knowledge base](README.md)\n* [FAQ](faq.md)\n* [Troubleshooting](troubleshooting.md)\n',
    },
  },
};

export const TEMPLATE_IDS = Object.keys(TEMPLATES);

export type TemplateRef =
  | { kind: 'url'; url: string }
  | { kind: 'space'; space: string }
  | { kind: 'collection'; collection: string }
  | { kind: 'page'; page: string; space?: string | undefined }
  | { kind: 'user'; user: string }
  | { kind: string; [key: string]: unknown };

/** A built-in template's title (the title of a space made from it without one); 404 for an unknown template. */
export function templateTitle(id: string): string {
  return requireTemplate(id).title;
}

export function requireTemplate(id: string): Template {
  const template = Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined;
  if (template === undefined) throw notFound(`Template ${id} not found: docsctl's templates are ${TEMPLATE_IDS.join(', ')}`);
  return template;
}

const markdownText = (text: string) => text.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);

/** The Markdown a reference becomes (404 for what the organization does not have). */
function refMarkdown(tx: StoreReader, organization: string, name: string, fallback: string, ref: TemplateRef, spaceId: string): string {
  const label = markdownText(fallback);
  switch (ref.kind) {
    case 'url': {
      const url = String((ref as { url: unknown }).url);
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw badRequest(`Invalid contentRefs.${name}.url "${url}": give an http(s) URL`);
      return `[${label}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
    }
    case 'space': {
      const space = getSpace(tx, String((ref as { space: unknown }).space));
      if (space === undefined || space.organization !== organization || space.deletedAt !== undefined) throw notFound(`contentRefs.${name}: space ${String((ref as { space: unknown }).space)} not found`);
      return `[${markdownText(space.title)}](https://app.gitbook.com/s/${space.id}/)`;
    }
    case 'collection': {
      const collection = getCollection(tx, String((ref as { collection: unknown }).collection));
      if (collection === undefined || collection.organization !== organization) throw notFound(`contentRefs.${name}: collection ${String((ref as { collection: unknown }).collection)} not found`);
      return `[${markdownText(collection.title)}](https://app.gitbook.com/o/${organization}/c/${collection.id}/)`;
    }
    case 'page': {
      const pageRef = ref as { page: string; space?: string };
      const space = getSpace(tx, pageRef.space ?? spaceId);
      if (space === undefined || space.organization !== organization || space.deletedAt !== undefined) throw notFound(`contentRefs.${name}: space ${pageRef.space ?? spaceId} not found`);
      const tree = openContent(tx, primaryRevision(tx, space)).tree();
      for (const { page, path } of walkPages(tree.pages)) {
        if (page.id === pageRef.page) return `[${markdownText(page.title)}](https://app.gitbook.com/s/${space.id}/${path.split('/').map(encodeURIComponent).join('/')})`;
      }
      throw notFound(`contentRefs.${name}: page ${pageRef.page} not found in space ${space.id}`);
    }
    case 'user': {
      const user = getUser(tx, String((ref as { user: unknown }).user));
      if (user === undefined) throw notFound(`contentRefs.${name}: user ${String((ref as { user: unknown }).user)} not found`);
      return markdownText(user.displayName);
    }
    default:
      throw badRequest(`contentRefs.${name}: a template reference of kind "${ref.kind}" is not supported (use url, space, collection, page or user)`);
  }
}

/** The template's files with its references filled in (400/404 for references it does not take or that are not there). */
export function templateSnapshot(
  tx: StoreReader,
  organization: string,
  spaceId: string,
  id: string,
  contentRefs: Record<string, TemplateRef> = {},
): RepoSnapshot {
  const template = requireTemplate(id);
  const values = new Map<string, string>();
  for (const [name, ref] of Object.entries(contentRefs)) {
    const slot = Object.hasOwn(template.refs, name) ? template.refs[name] : undefined;
    if (slot === undefined) {
      throw badRequest(`Template ${id} takes no content reference "${name}": it takes ${Object.entries(template.refs).map(([key, value]) => `${key} (${value.about})`).join(', ')}`);
    }
    values.set(name, refMarkdown(tx, organization, name, slot.fallback, ref, spaceId));
  }
  const encoder = new TextEncoder();
  const snapshot: RepoSnapshot = new Map();
  for (const [file, text] of Object.entries(template.files)) {
    const filled = text.replace(/\{\{ref:([a-z]+)\}\}/g, (_match, name: string) => values.get(name) ?? template.refs[name]?.fallback ?? name);
    snapshot.set(file, { path: file, data: encoder.encode(filled) });
  }
  return snapshot;
}
