/**
 * `docsctl storage upload --file FILE`: asks for a signed upload URL (generateStorageUploadURL),
 * then sends the bytes to it: a PUT to the URL in remote mode (`serve`'s `/uploads/<token>`,
 * or the real API's storage), the extension `uploadStorageFile` in local mode (no server).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ApiError, UsageError } from '../../api/errors.js';
import { contentTypeOf } from '../../gitsync/media.js';
import type { Hooks } from '../derive.js';
import type { Session } from '../session.js';

async function sendBytes(session: Session, url: string, bytes: Buffer, type: string): Promise<unknown> {
  if (session.settings.mode !== 'remote') {
    const token = decodeURIComponent(url.slice(url.lastIndexOf('/uploads/') + '/uploads/'.length));
    const transport = await session.transport();
    return (await transport.request('uploadStorageFile', { params: { uploadToken: token }, query: {}, body: { content: bytes.toString('base64') } })).body;
  }
  const response = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': type } });
  const text = await response.text();
  if (!response.ok) {
    const message = (() => {
      try {
        return String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? text);
      } catch {
        return text.slice(0, 200);
      }
    })();
    throw new ApiError(response.status, `The upload URL refused the file (${response.status}): ${message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // a storage service answering no JSON (the real API's): the key is what is known
  }
}

export const hooks = {
  'storage upload': {
    flags: [
      { flags: '--file <file>', description: 'the file to upload', required: true },
      { flags: '--type <mime>', description: 'its MIME type (default: from its extension)' },
      { flags: '--name <name>', description: 'its name in storage (default: the file name)' },
    ],
    build: async (options, input) => {
      const path = options.file as string;
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) throw new UsageError(`--file ${path}: no such file`);
      const name = typeof options.name === 'string' ? options.name : basename(path);
      const type = typeof options.type === 'string' ? options.type : contentTypeOf(name);
      input.body = { ...(input.body as object), kind: (input.body as { kind?: string } | undefined)?.kind ?? 'organization_file', file: { name, type, size: info.size } };
    },
    after: async (session, body, input, options) => {
      const { url, key } = body as { url: string; key: string };
      const file = (input.body as { file: { type: string; size: number } }).file;
      const bytes = await readFile(options.file as string);
      if (bytes.byteLength !== file.size) throw new UsageError(`--file ${String(options.file)} changed while it was uploaded: run it again`);
      const stored = (await sendBytes(session, url, bytes, file.type)) ?? { key };
      if (session.format === 'ids') return session.printText(key);
      const { columns } = await import('../../output/columns.js');
      await session.printObject(stored, columns.storageFile);
    },
  },
} satisfies Hooks;
