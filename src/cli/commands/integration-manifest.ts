/**
 * A GitBook integration manifest (`gitbook-manifest.yaml`, or JSON) as the body
 * of `publishIntegration`: `name` becomes the path, `script` and `icon` may name
 * files (relative to the manifest), read here; everything else is sent as declared.
 * Loaded only by `integration publish` (it pulls in the YAML parser).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../../api/errors.js';

export function manifestToPublish(path: string, text: string): { name: string; body: Record<string, unknown> } {
  let manifest: unknown;
  try {
    manifest = parse(text);
  } catch (error) {
    throw new UsageError(`Cannot parse ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new UsageError(`${path} is not an integration manifest (expected an object with name, title, script…)`);
  }
  const { name, ...rest } = manifest as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') throw new UsageError(`${path} has no "name": add the integration's name`);
  const base = dirname(resolve(path));
  // A value that names a readable file is replaced by the file; otherwise it is the content itself.
  const fileOr = (value: unknown, encoding: 'utf8' | 'base64'): unknown => {
    if (typeof value !== 'string') return value;
    try {
      return readFileSync(resolve(base, value), encoding);
    } catch {
      return encoding === 'utf8' ? value : undefined;
    }
  };
  const body: Record<string, unknown> = { ...rest, script: fileOr(rest.script, 'utf8') };
  const icon = rest.icon === undefined ? undefined : fileOr(rest.icon, 'base64');
  if (icon === undefined) delete body.icon;
  else body.icon = icon;
  return { name, body };
}
