import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import type { Context } from 'hono';
import { DashboardNotBuiltError, RouteNotFoundError } from '../errors/http-errors.js';

/** Where the dashboard is served. */
export const DASHBOARD_PATH = '/ui';

/** Whether a request path is the dashboard's (`/ui` or below). */
export function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}

/**
 * The Content-Security-Policy of every dashboard answer: scripts and styles from the
 * scheduler's own origin only (no inline script, no inline style attribute, no eval), images
 * from itself or `data:`/`blob:` (media in conversations), requests to itself only, no frames,
 * no plugins, forms posting nowhere else. Model and tool text can then never run as code even if
 * a rendering bug put it into the page as HTML.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Uint8Array;
  contentType: string;
  cacheControl: string;
}

/**
 * The built dashboard (`@flotilla/dashboard`'s `dist/`), read into memory once: a few small
 * files, so every answer is a map lookup and no request path ever reaches the file system.
 * Files under `assets/` carry a content hash in their name (Vite): cached for a year, immutable;
 * `index.html` is revalidated on every load so a deploy is seen at once.
 */
export class DashboardAssets {
  readonly #assets = new Map<string, Asset>();
  readonly #directory: string | undefined;

  constructor(directory: string | undefined = builtDashboardDirectory()) {
    this.#directory = directory;
    if (directory === undefined || !existsSync(join(directory, 'index.html'))) return;
    for (const file of filesUnder(directory)) {
      const name = relative(directory, file).split(sep).join('/');
      const contentType = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
      const immutable = name.startsWith('assets/');
      this.#assets.set(name, {
        body: readFileSync(file),
        contentType,
        cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
    }
  }

  /** Answers `GET /ui`, `/ui/` and `/ui/<file>`; any other path under `/ui/` is the app (client-side routes). */
  serve(c: Context): Response {
    if (this.#assets.size === 0) throw new DashboardNotBuiltError(this.#directory);
    const path = c.req.path.slice(DASHBOARD_PATH.length).replace(/^\/+/, '');
    const asset =
      this.#assets.get(path) ?? (path.startsWith('assets/') ? undefined : this.#assets.get('index.html'));
    if (!asset) throw new RouteNotFoundError(c.req.method, c.req.path);
    const headers = new Headers({
      'content-type': asset.contentType,
      'cache-control': asset.cacheControl,
      'content-security-policy': DASHBOARD_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    return new Response(c.req.method === 'HEAD' ? null : asset.body, { status: 200, headers });
  }
}

/** The `dist/` of the `@flotilla/dashboard` workspace, or `undefined` when it is not installed. */
function builtDashboardDirectory(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@flotilla/dashboard/package.json');
    return join(dirname(manifest), 'dist');
  } catch {
    return undefined;
  }
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
