/**
 * Uploads to an organization's storage (routes/storage.ts).
 *
 * - `generateStorageUploadURL` records a pending upload under the SHA-256 of a random token
 *   (`storageUploads`) and answers `${origin}/uploads/<token>` and the file's key
 *   (`<kind>/<id>/<name>`). The URL works once, for an hour, without a bearer token (the
 *   token is the credential, as a pre-signed URL's signature is). A font (`customization_font`)
 *   needs an organization admin, as fonts do; other kinds need `edit` (the route's role).
 * - `uploadStorageFile` (what `serve` runs for `PUT /uploads/<token>`, and the CLI in local
 *   mode) stores the bytes as an object and the organization file row (`storageFiles`,
 *   `<org>/<key>`), removes the pending upload, and answers the file with its download URL.
 *   The bytes must be exactly the declared size (400 otherwise, the upload still usable);
 *   an unknown, used or expired token is 404; the declared size is capped (`MAX_UPLOAD_BYTES`,
 *   what `serve` accepts as a body).
 */
import { ApiError, badRequest, notFound } from '../api/errors.js';
import type * as routes from '../api/routes/storage.js';
import { newToken } from '../util/ids.js';
import { hashToken } from './auth.js';
import { Reply, implementer } from './handler.js';
import { atLeast, orgAccess } from './permissions.js';
import { downloadUrl } from './urls.js';

const UPLOADS = 'storageUploads';
const FILES = 'storageFiles';
/** How long an upload URL works. */
const UPLOAD_TTL_MS = 60 * 60 * 1000;
/** The largest declared size: serve's default body limit. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

interface PendingUpload {
  organization: string;
  key: string;
  name: string;
  type: string;
  size: number;
  kind: string;
  createdBy: string;
  expiresAt: string;
}

export interface StorageFileRecord {
  key: string;
  name: string;
  type: string;
  size: number;
  kind: string;
  data: string;
  uploadedBy: string;
  createdAt: string;
}

/** A file name as a key segment: no path separators or control characters (400 naming the rule). */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '..' || /[/\\\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest(`Invalid file.name "${name}": give a file name without "/", "\\" or control characters`);
  }
  return trimmed;
}

const on = implementer<typeof routes>();

export const storageHandlers = {
  ...on('generateStorageUploadURL', (ctx, { params, body }) => {
    const { org, role } = orgAccess(ctx.tx, params.organizationId, ctx.actor.userId);
    if (body.kind === 'customization_font' && !atLeast(role, 'admin')) throw new ApiError(403, 'Uploading a font needs the admin role in this organization (fonts are admin settings)');
    if (body.file.size > MAX_UPLOAD_BYTES) throw new ApiError(413, `file.size ${body.file.size} is over the ${MAX_UPLOAD_BYTES} bytes an upload may hold`);
    const name = checkedName(body.file.name);
    const token = newToken();
    const key = `${body.kind}/${ctx.ids()}/${name}`;
    const pending: PendingUpload = {
      organization: org.id,
      key,
      name,
      type: body.file.type,
      size: body.file.size,
      kind: body.kind,
      createdBy: ctx.actor.userId,
      expiresAt: new Date(ctx.clock().getTime() + UPLOAD_TTL_MS).toISOString(),
    };
    ctx.tx.put(UPLOADS, hashToken(token), pending);
    return new Reply(201, { object: 'storage-signed-url', url: `${ctx.origin.replace(/\/+$/, '')}/uploads/${token}`, key });
  }),

  ...on('uploadStorageFile', (ctx, { params, body }) => {
    const hash = hashToken(params.uploadToken);
    const pending = ctx.tx.get<PendingUpload>(UPLOADS, hash);
    if (!pending || Date.parse(pending.expiresAt) <= ctx.clock().getTime()) {
      throw notFound('No upload at this URL: it was used already, expired (an hour), or never made (docsctl storage upload makes one)');
    }
    const bytes = Buffer.from(body.content, 'base64');
    if (bytes.byteLength !== pending.size) throw badRequest(`The upload declared ${pending.size} bytes and got ${bytes.byteLength}: send the whole file`);
    const data = ctx.tx.putObject({ base64: bytes.toString('base64') });
    const file: StorageFileRecord = { key: pending.key, name: pending.name, type: pending.type, size: pending.size, kind: pending.kind, data, uploadedBy: pending.createdBy, createdAt: ctx.clock().toISOString() };
    ctx.tx.put(FILES, `${pending.organization}/${pending.key}`, file);
    ctx.tx.delete(UPLOADS, hash);
    return storageFileView(ctx.origin, pending.organization, file);
  }),
};

export function storageFileView(origin: string, orgId: string, file: StorageFileRecord) {
  return {
    object: 'storage-file',
    organization: orgId,
    key: file.key,
    name: file.name,
    type: file.type,
    size: file.size,
    kind: file.kind,
    createdAt: file.createdAt,
    downloadURL: downloadUrl(origin, file.data, file.name),
  };
}

/** The user a pending upload acts as (serve's `/uploads/<token>` runs the upload as them), if the token names one. */
export function uploadActor(tx: { get<T>(table: string, key: string): T | undefined }, token: string): string | undefined {
  return tx.get<PendingUpload>(UPLOADS, hashToken(token))?.createdBy;
}
