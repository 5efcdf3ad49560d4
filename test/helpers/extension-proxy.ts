/**
 * A proxy in front of `serve` that records the paths asked: `without: 'extension'` answers 404
 * for /x-docsctl/ paths, as GitBook's API would (a server without docsctl's extensions);
 * `without: 'format'` drops the query of the site tree read, as a docsctl without its `format`
 * option ignores it.
 */
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export function proxy(target: string, without?: 'extension' | 'format') {
  const paths: string[] = [];
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    paths.push(req.url ?? '');
    if (without === 'extension' && (req.url ?? '').includes('/x-docsctl/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'Not found' } }));
      return;
    }
    const url = without === 'format' ? (req.url ?? '/').replace(/\/x-docsctl\/tree\?.*$/, '/x-docsctl/tree') : (req.url ?? '/');
    const upstream = request(new URL(url, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  return {
    paths,
    url: () => `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    listen: () => new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}
