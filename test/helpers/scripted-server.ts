/**
 * A loopback HTTP server that answers from a script, for testing HTTP clients
 * over real sockets (so every client, node:http or undici, is tested the same
 * way): each scripted reply answers the next matching request(s) and records
 * what it received. A request nothing was scripted for gets a 599, which fails
 * the test that sent it.
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface ScriptedReply {
  status?: number;
  /** An object is sent as JSON (with its Content-Type); a string as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Hang up on the request instead of answering (a reset connection). */
  reset?: boolean;
}

interface Entry {
  reply: ScriptedReply;
  seen: SeenRequest[];
  left: number;
  method: string | undefined;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export class ScriptedServer {
  private readonly script: Entry[] = [];
  /** Every TCP connection the server accepted. */
  connections = 0;

  private constructor(
    private readonly server: Server,
    /** `127.0.0.1:PORT` */
    readonly host: string,
  ) {}

  /** `http://127.0.0.1:PORT` */
  get origin(): string {
    return `http://${this.host}`;
  }

  static async start(): Promise<ScriptedServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const scripted = new ScriptedServer(server, `127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', () => scripted.connections++);
    server.on('request', (request, response) => {
      void readBody(request).then((text) => {
        const entry = scripted.script.find((e) => e.left > 0 && (e.method === undefined || e.method === request.method));
        if (!entry) {
          response.writeHead(599).end('no reply scripted');
          return;
        }
        entry.left--;
        entry.seen.push({
          path: request.url ?? '',
          method: request.method ?? '',
          headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
          body: text === '' ? undefined : (JSON.parse(text) as unknown),
        });
        const { reply } = entry;
        if (reply.reset) {
          request.socket.destroy();
          return;
        }
        const json = typeof reply.body === 'object' && reply.body !== null;
        const data = reply.body === undefined ? '' : json ? JSON.stringify(reply.body) : String(reply.body);
        response.writeHead(reply.status ?? 200, {
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...reply.headers,
        });
        response.end(data);
      });
    });
    return scripted;
  }

  /** Answers the next `times` (default 1) requests (of `method`, if given) with `reply`, recording them in `seen`. */
  reply(seen: SeenRequest[], reply: ScriptedReply, options: { times?: number; method?: string } = {}): void {
    this.script.push({ reply, seen, left: options.times ?? 1, method: options.method });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
