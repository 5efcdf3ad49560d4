/**
 * The translation glossary (listGlossaryEntries, getGlossaryEntry, updateGlossaryEntries)
 * and runTranslation: a deterministic glossary-based run that writes the source space's
 * content, terms replaced, as a revision of the translated space. Through executeOperation;
 * every answer checked against 0.202's schemas (contentSetup).
 */
import { describe, expect, it } from 'vitest';
import { getRevision, getSpace } from '../../src/domain/core-records.js';
import { loadTree } from '../../src/domain/content/storage.js';
import { contentSetup, doc, findPage } from './content/helpers.js';

type Entry = { id: string; translations: Record<string, string> };

async function glossary() {
  const h = await contentSetup();
  const org = { organizationId: h.orgId };
  const update = (operations: unknown[]) => h.admin.ok('updateGlossaryEntries', { params: org, body: { operations } }, 204);
  const list = async (query: Record<string, string> = {}) => (await h.admin.ok<{ items: Entry[]; count: number }>('listGlossaryEntries', { params: org, query })).items;
  return { h, org, update, list };
}

describe('the glossary', () => {
  it('inserts, updates and deletes entries in one batch, lists them (sorted by a language on request) and reads one', async () => {
    const { h, org, update, list } = await glossary();
    await update([
      { type: 'insert', translations: { en: 'Space', fr: 'Espace', de: 'Bereich' } },
      { type: 'insert', translations: { en: 'Change request', fr: 'Demande de modification' } },
      { type: 'insert', translations: { en: 'Page', de: 'Seite' } },
    ]);
    const [space, cr, page] = await list();
    expect([space, cr, page].map((e) => e?.translations.en)).toEqual(['Space', 'Change request', 'Page']);
    expect((await list({ orderBy: 'de' })).map((e) => e.translations.en)).toEqual(['Space', 'Page', 'Change request']);
    await update([
      { type: 'update', id: (page as Entry).id, translations: { en: 'Page', fr: 'Page', de: 'Seite' } },
      { type: 'delete', id: (cr as Entry).id },
    ]);
    expect(await h.admin.ok('getGlossaryEntry', { params: { ...org, glossaryEntryId: (page as Entry).id } })).toMatchObject({
      object: 'glossary-entry',
      translations: { en: 'Page', fr: 'Page', de: 'Seite' },
    });
    expect((await list()).map((e) => e.translations.en)).toEqual(['Space', 'Page']);
  });

  it('is all or nothing: an unknown id is a 404 naming its operation and nothing is written; bad terms 400; members read, admins write', async () => {
    const { h, org, update, list } = await glossary();
    await update([{ type: 'insert', translations: { en: 'Space' } }]);
    await h.admin.fails('updateGlossaryEntries', { params: org, body: { operations: [{ type: 'insert', translations: { en: 'Page' } }, { type: 'delete', id: 'nope' }] } }, 404, /operation 2, delete/);
    expect((await list()).map((e) => e.translations.en)).toEqual(['Space']);
    await h.admin.fails('updateGlossaryEntries', { params: org, body: { operations: [{ type: 'insert', translations: { en: 'two\nlines' } }] } }, 400);
    await h.admin.fails('updateGlossaryEntries', { params: org, body: { operations: [{ type: 'insert', translations: { klingon: 'x' } }] } }, 400);
    const reader = await h.member('rita@acme.test', 'read');
    expect(await h.ok(reader, 'listGlossaryEntries', { params: org })).toMatchObject({ count: 1 });
    await h.fails(reader, 'updateGlossaryEntries', { params: org, body: { operations: [{ type: 'delete', id: 'x' }] } }, 403);
    await h.admin.fails('getGlossaryEntry', { params: { ...org, glossaryEntryId: 'nope' } }, 404);
  });
});

describe('runTranslation', () => {
  it('writes the source content with glossary terms replaced (whole words, not in code) into the translated space; a second run adds a revision', async () => {
    const { h, org, update } = await glossary();
    const source = await h.createSpace('Handbook');
    await h.seedSpace(source.id, {
      pages: [
        doc('p1', 'Space basics', 'Every Space has pages. Spaces are not replaced, nor SpaceX.\n\n```\nSpace in code\n```\n\nA Page of a Space.', [
          doc('p2', 'Page guide', 'Open the Page.', [], { description: 'About a Space' }),
        ]),
      ],
      files: [],
    });
    await update([
      { type: 'insert', translations: { en: 'Space', fr: 'Espace' } },
      { type: 'insert', translations: { en: 'Page', fr: 'Page' } },
      { type: 'insert', translations: { en: 'Page guide', fr: 'Guide des pages' } },
      { type: 'insert', translations: { de: 'Seite' } },
    ]);
    const translation = await h.admin.ok('createTranslation', { params: org, body: { source: { space: source.id, language: 'en' }, language: 'fr' } }, 201);
    expect(translation).toMatchObject({ status: 'pending', stats: { runs: 0 } });
    await h.admin.ok('runTranslation', { params: { ...org, translationId: translation.id } }, 204);
    const ran = await h.admin.ok<{ status: string; result: { space: string; revision: string; language: string }; stats: Record<string, number> }>('getTranslation', {
      params: { ...org, translationSettingsId: translation.id },
    });
    expect(ran).toMatchObject({ status: 'completed', result: { language: 'fr' }, stats: { runs: 1, latestPages: 2, totalPages: 2 } });
    expect(ran.stats.latestWords).toBeGreaterThan(20);
    const reader = h.store.read();
    const target = getSpace(reader, ran.result.space);
    expect(target).toMatchObject({ title: 'Handbook (fr)', language: 'fr', organization: h.orgId, revision: ran.result.revision });
    const tree = loadTree(reader, getRevision(reader, ran.result.space, ran.result.revision) ?? {});
    expect(findPage(tree, 'p1')).toMatchObject({
      title: 'Espace basics',
      markdown: 'Every Espace has pages. Spaces are not replaced, nor SpaceX.\n\n```\nSpace in code\n```\n\nA Page of a Espace.',
    });
    expect(findPage(tree, 'p2')).toMatchObject({ title: 'Guide des pages', description: 'About a Espace', markdown: 'Open the Page.' });
    // The source is untouched; a second run writes a new revision of the same space.
    expect(findPage(loadTree(reader, getRevision(reader, source.id, (getSpace(reader, source.id) as { revision: string }).revision) ?? {}), 'p1').title).toBe('Space basics');
    await h.admin.ok('runTranslation', { params: { ...org, translationId: translation.id } }, 204);
    const again = await h.admin.ok<{ result: { space: string; revision: string }; stats: { runs: number; totalPages: number } }>('getTranslation', { params: { ...org, translationSettingsId: translation.id } });
    expect(again.result.space).toBe(ran.result.space);
    expect(again.result.revision).not.toBe(ran.result.revision);
    expect(again.stats).toMatchObject({ runs: 2, totalPages: 4 });
    expect(getRevision(h.store.read(), ran.result.space, again.result.revision)?.parents).toEqual([ran.result.revision]);
  });

  it('refuses settings of the API doc (400), an unknown translation (404), and non-admins (403)', async () => {
    const { h, org } = await glossary();
    const settings = await h.admin.ok('createTranslation', { params: org, body: { title: 'EU' } }, 201);
    await h.admin.fails('runTranslation', { params: { ...org, translationId: settings.id } }, 400, /not a translation/);
    await h.admin.fails('runTranslation', { params: { ...org, translationId: 'nope' } }, 404);
    const editor = await h.member('ed@acme.test', 'edit');
    await h.fails(editor, 'runTranslation', { params: { ...org, translationId: settings.id } }, 403);
  });
});
