/**
 * Uploads to an organization's storage: the real API's `generateStorageUploadURL` answers a
 * pre-signed URL the client PUTs the bytes to. docsctl's URL is served by `serve` itself
 * (`/uploads/<token>`, no bearer token: the URL is the credential, single use, one hour) and
 * stores the bytes as an organization file; in local mode the CLI hands the bytes to the
 * same handler through the extension `uploadStorageFile`.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { noQuery, pathParams } from '../schemas/common.js';

export const STORAGE_UPLOAD_KINDS = ['customization_font', 'import_file', 'organization_file'] as const;

export const generateStorageUploadURL = defineRoute({
  id: 'generateStorageUploadURL',
  method: 'POST',
  path: '/v1/orgs/{organizationId}/storage/upload',
  summary: 'Create a signed URL to upload a file',
  source: 'real-api',
  access: 'edit',
  params: pathParams('organizationId'),
  query: noQuery(),
  body: z.object({
    file: z.object({
      name: z.string().min(1).max(255).describe('file name'),
      type: z.string().min(1).max(255).describe('MIME type'),
      size: z.number().int().min(0).describe('size in bytes'),
    }),
    kind: z.enum(STORAGE_UPLOAD_KINDS).describe('what the file is for'),
  }),
  bodyRequired: true,
  success: 201,
  cli: {
    command: 'storage upload',
    summary: "Upload a file to the organization's storage (a signed URL, then the bytes PUT to it); prints its key",
    flags: { kind: { flag: '--kind <kind>', description: 'what the file is for (default: organization_file)' } },
    columns: 'storageFile',
    examples: ['docsctl storage upload logo.png', 'docsctl storage upload Inter.woff2 --kind customization_font --format ids'],
  },
});

export const uploadStorageFile = defineRoute({
  id: 'uploadStorageFile',
  method: 'PUT',
  path: '/v1/x-docsctl/storage/uploads/{uploadToken}',
  summary: "Store the bytes of a signed upload as an organization file (what serve's /uploads/<token> URL does; docsctl extension)",
  source: 'docsctl',
  // The signed URL's token is the credential (checked by the handler), as with the real API's storage URLs.
  access: 'none',
  params: z.object({ uploadToken: z.string().min(1).max(200) }),
  query: noQuery(),
  body: z.object({ content: z.string().describe('the bytes, base64') }),
  bodyRequired: true,
});
