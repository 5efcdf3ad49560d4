// A small HTTP load generator (wrk-like): `connections` keep-alive sockets, each
// sending its next request as soon as the previous answer is read, for `durationMs`.
// Used by bench/serve.mjs; runs in its own process so it does not share an event
// loop with the server it measures.
import http from 'node:http';

/**
 * @param {{ url: string, method?: string, headers?: Record<string,string>, body?: (i: number) => string | undefined,
 *           connections?: number, durationMs?: number, warmupMs?: number }} options
 * @returns {Promise<{ requests: number, perSecond: number, statuses: Record<string, number>, errors: number }>}
 */
export async function load(options) {
  const url = new URL(options.url);
  const connections = options.connections ?? 10;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses = {};
  let errors = 0;
  let counting = false;
  let requests = 0;
  let stop = false;
  let sent = 0;
  const one = () =>
    new Promise((resolve) => {
      const body = options.body?.(sent++);
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: options.method ?? 'GET',
          headers: { ...(options.headers ?? {}), ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            if (counting) {
              requests++;
              statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            }
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const worker = async () => {
    while (!stop) await one();
  };
  const workers = Array.from({ length: connections }, worker);
  await new Promise((r) => setTimeout(r, options.warmupMs ?? 300));
  counting = true;
  const started = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, options.durationMs ?? 2000));
  counting = false;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  return { requests, perSecond: requests / seconds, statuses, errors };
}

// As a script: node bench/load.mjs '{"url":…,"method":…,"token":…,"body":…,"connections":…,"durationMs":…}' → prints JSON.
if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(process.argv[2] ?? '{}');
  const result = await load({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.token ? { authorization: `Bearer ${spec.token}` } : {},
    ...(spec.body !== undefined ? { body: () => spec.body } : {}),
    connections: spec.connections ?? 10,
    durationMs: spec.durationMs ?? 2000,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
