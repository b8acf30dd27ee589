import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { RequestHandler } from 'express';

const gzipAsync = promisify(gzip);

/** The files of `swagger-ui-dist` the page needs (no standalone preset: its top bar loads any URL). */
const PACKAGE_FILES = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

export interface DocsAsset {
  /** `/docs/assets/<hash>/<name>`: the content hash in the path lets browsers keep it for a year. */
  url: string;
  type: string;
  body: Buffer;
  /** Of the content: the ETag, with `-gzip` for the gzip coding (each representation has its own). */
  hash: string;
  /** Compressed on first request, not at start: most gateways never serve the docs. */
  gzipped?: Promise<Buffer>;
}

function asset(name: string, type: string, body: Buffer): DocsAsset {
  const hash = createHash('sha256').update(body).digest('hex');
  return { url: `/docs/assets/${hash.slice(0, 16)}/${name}`, type, body, hash: hash.slice(0, 32) };
}

/** Swagger UI's own files, read from the installed package, plus the page's own script and stylesheet. */
export function loadDocsAssets(own: Record<string, { type: string; text: string }>): Map<string, DocsAsset> {
  const root = dirname(require.resolve('swagger-ui-dist/package.json'));
  const assets = [
    ...Object.entries(PACKAGE_FILES).map(([name, type]) => asset(name, type, readFileSync(join(root, name)))),
    ...Object.entries(own).map(([name, { type, text }]) => asset(name, type, Buffer.from(text))),
  ];
  return new Map(assets.map((entry) => [entry.url.split('/').pop() ?? '', entry]));
}

/**
 * `GET /docs/assets/:hash/:name`: only the listed files, only under their current hash (anything else is
 * 404), immutable for a year, gzip when the client takes it, 304 on a matching `If-None-Match`.
 */
export function serveDocsAsset(
  assets: Map<string, DocsAsset>,
  headers: Record<string, string>,
): RequestHandler {
  return (req, res, next) => {
    const entry = assets.get(String(req.params.name));
    if (!entry || req.path !== entry.url) return next();
    const gzipped = req.acceptsEncodings('gzip') === 'gzip';
    res.set({
      ...headers,
      'Content-Type': entry.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: gzipped ? `"${entry.hash}-gzip"` : `"${entry.hash}"`,
      Vary: 'Accept-Encoding',
    });
    // `req.fresh` compares the request's If-None-Match with the ETag just set.
    if (req.fresh) return void res.status(304).end();
    if (!gzipped) return void res.send(entry.body);
    entry.gzipped ??= gzipAsync(entry.body);
    entry.gzipped.then(
      (body) => res.set('Content-Encoding', 'gzip').send(body),
      (error: unknown) => next(error),
    );
  };
}
