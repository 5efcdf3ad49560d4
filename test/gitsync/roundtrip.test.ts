import { describe, expect, it } from 'vitest';
import { walkPages } from '../../src/content-model/model.js';
import { allFixtures } from './fixtures.js';
import { expectRoundTrip, importOf, repo, text } from './helpers.js';

describe('round trip on every fixture', () => {
  for (const [name, fixture, projectDirectory] of allFixtures) {
    it(`${name}: export(import(x), x) writes nothing; import(export) is the same model`, () => {
      const result = expectRoundTrip(repo(fixture()), projectDirectory);
      expect(result.tree.pages.length).toBeGreaterThan(0);
    });

    it(`${name}: page bodies are kept byte for byte (front matter + heading + markdown = the file)`, () => {
      const snapshot = repo(fixture());
      const { tree } = importOf(snapshot, projectDirectory !== undefined ? { projectDirectory } : {});
      for (const { page } of walkPages(tree.pages)) {
        if (page.type !== 'document' || !page.git) continue;
        const file = snapshot.get(page.git.path);
        if (!file || file.mode === 'symlink') continue;
        const decoded = text(snapshot, page.git.path);
        const extra = page.extra ?? {};
        const rebuilt = String(extra.frontMatter ?? '') + String(extra.heading ?? '') + String(page.markdown ?? '');
        expect(rebuilt).toBe(decoded);
      }
    });
  }
});
