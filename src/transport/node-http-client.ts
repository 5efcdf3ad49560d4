/**
 * The node:http / node:https HttpClient (see http-client.ts): what one-shot
 * remote commands use, because it needs nothing loaded or compiled before the
 * first request. Sockets are kept alive between the requests of one command
 * (an Agent per protocol) and released by `close()`.
 *
 * Timeouts mirror undici's, with undici's codes: the TCP connection must be up
 * within `connectTimeoutMs` (CONNECT_TIMEOUT); after that the socket may stay
 * silent for at most `timeoutMs`, whether waiting for the headers
 * (HEADERS_TIMEOUT) or between body chunks (BODY_TIMEOUT).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import {
  BODY_TIMEOUT,
  CONNECT_TIMEOUT,
  HEADERS_TIMEOUT,
  type HttpAnswer,
  type HttpClient,
  type HttpExchange,
} from './http-client.js';

function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export class NodeHttpClient implements HttpClient {
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;

  send(exchange: HttpExchange): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const url = new URL(exchange.url);
      const secure = url.protocol === 'https:';
      const agent = secure
        ? (this.httpsAgent ??= new https.Agent({ keepAlive: true }))
        : (this.httpAgent ??= new http.Agent({ keepAlive: true }));
      const headers =
        exchange.body === undefined
          ? exchange.headers
          : { ...exchange.headers, 'content-length': String(Buffer.byteLength(exchange.body)) };

      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      let answered = false;
      let request: http.ClientRequest;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        request?.destroy();
        reject(error);
      };

      try {
        request = (secure ? https : http).request(url, { method: exchange.method, headers, agent });
      } catch (error) {
        // Invalid header values (a token holding a newline…) are refused before anything is sent.
        reject(error);
        return;
      }
      request.on('error', fail);
      request.on('socket', (socket: Socket) => {
        if (!socket.connecting) return; // a kept-alive socket: already connected
        connectTimer = setTimeout(
          () => fail(codedError(CONNECT_TIMEOUT, `Connect timeout after ${exchange.connectTimeoutMs}ms`)),
          exchange.connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      // Armed once the socket is connected; covers the wait for headers and each pause in the body.
      request.setTimeout(exchange.timeoutMs, () =>
        fail(
          answered
            ? codedError(BODY_TIMEOUT, `Body timeout after ${exchange.timeoutMs}ms`)
            : codedError(HEADERS_TIMEOUT, `Headers timeout after ${exchange.timeoutMs}ms`),
        ),
      );
      request.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        // The server hung up in the middle of the body.
        response.on('close', () => {
          if (!response.complete) fail(codedError('ECONNRESET', 'The connection closed before the whole answer came'));
        });
      });
      request.end(exchange.body);
    });
  }

  async close(): Promise<void> {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
    this.httpAgent = undefined;
    this.httpsAgent = undefined;
  }
}
