/**
 * The `urls` members of API objects, built from the request's origin
 * (e.g. `http://127.0.0.1:4000`): `location` is the object's API URL
 * (`${origin}/v1/...`), `app` the page of the object in the application
 * (`${origin}/app/...`).
 */

const base = (origin: string) => origin.replace(/\/+$/, '');
const seg = (id: string) => encodeURIComponent(id);

/** `${origin}/v1/${path}` for an API path written without the `/v1/` prefix. */
export function apiUrl(origin: string, path: string): string {
  return `${base(origin)}/v1/${path.replace(/^\/+/, '')}`;
}

/**
 * `${origin}/files/<data hash>/<name>`: the bytes of a stored `{base64}` object, which
 * `docsctl serve` answers without a token (content-addressed: the URL never goes stale).
 */
export function downloadUrl(origin: string, dataHash: string, name: string): string {
  return `${base(origin)}/files/${dataHash}/${seg(name)}`;
}

/** `${origin}/app/${path}`. */
export function appUrl(origin: string, path: string): string {
  return `${base(origin)}/app/${path.replace(/^\/+/, '')}`;
}

export function organizationUrls(origin: string, orgId: string) {
  return { location: apiUrl(origin, `orgs/${seg(orgId)}`), app: appUrl(origin, `o/${seg(orgId)}`) };
}

export function userUrls(origin: string, userId: string) {
  return { location: apiUrl(origin, `users/${seg(userId)}`) };
}

export function collectionUrls(origin: string, orgId: string, collectionId: string) {
  return {
    location: apiUrl(origin, `collections/${seg(collectionId)}`),
    app: appUrl(origin, `o/${seg(orgId)}/c/${seg(collectionId)}`),
  };
}

export function spaceUrls(origin: string, orgId: string, spaceId: string) {
  return {
    location: apiUrl(origin, `spaces/${seg(spaceId)}`),
    app: appUrl(origin, `o/${seg(orgId)}/s/${seg(spaceId)}`),
  };
}
