import { createHash } from 'node:crypto';
import { buildOpenApiDocument } from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import type { Express } from 'express';
import { loadDocsAssets, serveDocsAsset } from './docs-assets';
import { DOCS_SCRIPT, DOCS_STYLE, renderDocsPage } from './docs-page';

/**
 * The page's policy: scripts, styles and the document from the gateway only, nothing inline. The one thing
 * allowed beyond 'self' is `data:` images: Swagger UI's stylesheet draws its icons (arrows, locks, the copy
 * button) as SVG data URIs. `connect-src 'self'` covers the document, the token request and every "try it"
 * call; no framing, no plugins, no `<base>`, no form posts. The browser test fails on any violation.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * `GET /openapi.json`, `GET /docs` (Swagger UI from `swagger-ui-dist`, served by the gateway: no CDN) and
 * `GET /docs/assets/<hash>/<name>`, built once at start.
 */
export function mountDocs(app: Express): void {
  const document = buildOpenApiDocument();
  const json = JSON.stringify(document);
  const assets = loadDocsAssets({
    'docs.js': { type: 'text/javascript; charset=utf-8', text: DOCS_SCRIPT },
    'docs.css': { type: 'text/css; charset=utf-8', text: DOCS_STYLE },
  });
  const html = renderDocsPage(document.info.title, (name) => assets.get(name)?.url ?? '');
  const htmlEtag = `"${createHash('sha256').update(html).digest('hex').slice(0, 32)}"`;

  app.get('/openapi.json', (_req, res) => {
    res
      .type('application/json')
      .set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' })
      .send(json);
  });
  // Revalidated on every visit (304 while unchanged): a new deploy's page names its new asset hashes at once.
  app.get('/docs', (req, res) => {
    res.set({
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': DOCS_CSP,
      'Cache-Control': 'no-cache',
      ETag: htmlEtag,
    });
    if (req.fresh) return void res.status(304).end();
    res.send(html);
  });
  app.get('/docs/assets/:hash/:name', serveDocsAsset(assets, SECURITY_HEADERS));
  for (const path of ['/openapi.json', '/docs'])
    app.all(path, (_req, res, next) => {
      res.setHeader('Allow', 'GET, HEAD');
      next(new AppError('METHOD_NOT_ALLOWED'));
    });
}
