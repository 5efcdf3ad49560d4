/**
 * readRouteOf: which GET reads the object a write acts on (used to print "Nothing to change"
 * and to tell whether a delete found something). A write to a list's path adds to the list:
 * it has no "current" object, and its parent's read would answer another object.
 */
import { describe, expect, it } from 'vitest';
import { readRouteOf } from '../../src/cli/current.js';

describe('readRouteOf', () => {
  it('is the GET at the same path for a write to one object', () => {
    expect(readRouteOf('updateSpaceById')?.id).toBe('getSpaceById');
  });
  it('is the object read for an action under it', () => {
    expect(readRouteOf('restoreSpace')?.id).toBe('getSpaceById');
    expect(readRouteOf('createIntegrationInstallationToken')?.id).toBe('getIntegrationInstallationById');
  });
  it('is none for a write to a list path (a create or an install), not the parent object', () => {
    // POST …/installations/{installationId}/spaces used to read the installation itself.
    expect(readRouteOf('installIntegrationOnSpace')).toBeUndefined();
    expect(readRouteOf('installIntegrationOnSite')).toBeUndefined();
    expect(readRouteOf('installIntegration')).toBeUndefined();
  });
});
