import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What `/healthz` reports. */
export interface HealthReport {
  /** `true` answers 200, `false` 503 (load balancers and orchestrators stop sending work). */
  healthy: boolean;
  [detail: string]: unknown;
}

/** Options of {@link startHealthServer}. */
export interface HealthServerOptions {
  port: number;
  host: string;
  /** Called on every `GET /healthz`. */
  health(): Promise<HealthReport>;
  /** Called on every `GET /metrics`: the Prometheus text and its content type. */
  metrics(): Promise<{ contentType: string; text: string }>;
}

/** A listening health server. */
export interface HealthServer {
  /** The bound port (the chosen one when `port` was 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /healthz` (JSON, 200 or 503) and `GET /metrics` (Prometheus text). Anything else
 * is 404. Carries no run data, so it needs no token.
 * @throws Error when the port cannot be bound (e.g. EADDRINUSE)
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, 'text/plain', 'GET only\n');
    if (path === '/healthz') {
      options.health().then(
        (report) => send(response, report.healthy ? 200 : 503, 'application/json', JSON.stringify(report)),
        (error: unknown) =>
          send(response, 503, 'application/json', JSON.stringify({ healthy: false, error: String(error) })),
      );
      return;
    }
    if (path === '/metrics') {
      options.metrics().then(
        ({ contentType, text }) => send(response, 200, contentType, text),
        (error: unknown) => send(response, 500, 'text/plain', `metrics failed: ${String(error)}\n`),
      );
      return;
    }
    send(response, 404, 'text/plain', 'Not found: try /healthz or /metrics\n');
  });
  await listen(server, options.port, options.host);
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
}
