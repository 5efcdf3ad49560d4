/**
 * The undici HttpClient (see http-client.ts). undici is imported on the first
 * request, never at module load: commands that do not go remote, or go remote
 * with the node client, must not pay for it. Only type imports of undici may
 * appear at the top of this file.
 */
import type { Dispatcher } from 'undici';
import type { HttpAnswer, HttpClient, HttpExchange } from './http-client.js';

type Undici = typeof import('undici');

let undiciModule: Promise<Undici> | undefined;

/** undici, imported on first use and shared by every client of the process. */
export function loadUndici(): Promise<Undici> {
  // undici is CommonJS: once bundled, its exports may sit on the namespace's `default`.
  undiciModule ??= import('undici').then((mod) => {
    const withDefault = mod as Undici & { default?: Undici };
    return typeof withDefault.Agent === 'function' ? mod : (withDefault.default ?? mod);
  });
  return undiciModule;
}

export class UndiciClient implements HttpClient {
  private agent: Dispatcher | undefined;

  /** `dispatcher`: used instead of the client's own Agent (tests: MockAgent); not closed by `close()`. */
  constructor(private readonly injected?: Dispatcher) {}

  async send(exchange: HttpExchange): Promise<HttpAnswer> {
    const undici = await loadUndici();
    const dispatcher = this.injected ?? (this.agent ??= new undici.Agent({ connect: { timeout: exchange.connectTimeoutMs } }));
    const response = await undici.request(exchange.url, {
      method: exchange.method as Dispatcher.HttpMethod,
      headers: exchange.headers,
      body: exchange.body,
      dispatcher,
      headersTimeout: exchange.timeoutMs,
      bodyTimeout: exchange.timeoutMs,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    if (agent) await agent.close();
  }
}
