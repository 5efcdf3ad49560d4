/** A site share key is a secret: the debug log of requests never shows it. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/transport/debug-log.js';

describe('share keys in logged URLs', () => {
  it('masks shareKey (API query) and share (published URL)', () => {
    expect(redactUrl('http://127.0.0.1:4000/v1/orgs/o/sites/s/published?shareKey=abc123')).toBe(
      'http://127.0.0.1:4000/v1/orgs/o/sites/s/published?shareKey=****',
    );
    expect(redactUrl('https://acme.gitbook.io/docs/?share=abc123')).toBe('https://acme.gitbook.io/docs/?share=****');
  });
});
