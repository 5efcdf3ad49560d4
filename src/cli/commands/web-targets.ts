/**
 * `--web` on `space get`, `site get`, `cr get` and `page get`: remotely the object's
 * app URL (`urls.app`; a site's published URL when it has no app URL) is opened with
 * the system opener; locally objects have no app to open, so the preview is (served on
 * a free port until Ctrl-C, as `site preview --open`): the site, or the space on its
 * own, at the page, with the change request's content for `cr get`. Loaded by the
 * command specs; the opener and the preview load only when `--web` is given.
 */
import type { RawInput } from '../../api/validate.js';
import type { PreviewTarget } from '../../preview/model.js';
import type { Session } from '../session.js';

type Web = (session: Session, body: unknown, input: RawInput) => Promise<void>;

interface Answer {
  id?: string;
  urls?: { app?: string; published?: string };
}

const param = (input: RawInput, name: string) => (input.params as Record<string, string | undefined> | undefined)?.[name];

async function open(
  session: Session,
  remoteUrl: string | undefined,
  target: PreviewTarget,
  options: { changeRequest?: string | undefined; page?: { spaceId: string; pageId: string } | undefined } = {},
): Promise<void> {
  if (session.settings.mode === 'remote' && remoteUrl) {
    const { openInBrowser } = await import('../web.js');
    await openInBrowser(session, remoteUrl);
    return;
  }
  const { runPreview } = await import('./site-preview.js');
  await runPreview(session, target, { port: '0', open: true, changeRequest: options.changeRequest, openAt: options.page });
}

export const webSpace: Web = (session, body) => {
  const space = body as Answer;
  return open(session, space.urls?.app, { kind: 'space', spaceId: space.id as string });
};

export const webSite: Web = (session, body, input) => {
  const site = body as Answer;
  return open(session, site.urls?.app ?? site.urls?.published, { kind: 'site', organizationId: param(input, 'organizationId') as string, siteId: site.id as string });
};

export const webChangeRequest: Web = (session, body, input) => {
  const cr = body as Answer;
  const spaceId = param(input, 'spaceId') as string;
  return open(session, cr.urls?.app, { kind: 'space', spaceId }, { changeRequest: cr.id });
};

export const webPage: Web = (session, body, input) => {
  const page = body as Answer;
  const spaceId = param(input, 'spaceId') as string;
  return open(session, page.urls?.app, { kind: 'space', spaceId }, { changeRequest: param(input, 'changeRequestId'), page: { spaceId, pageId: page.id as string } });
};
