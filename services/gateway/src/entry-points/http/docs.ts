import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  REASON_CATALOGUE,
  REASON_CODES,
  SUPPORTED_LANGUAGES,
  buildOpenApiDocument,
  problemType,
  type Language,
} from '@spam-check/contracts';
import { AppError } from '@spam-check/service-kit';
import type { Express } from 'express';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1,h2,h3{line-height:1.2}h2{border-bottom:1px solid #d0d7de;padding-bottom:.3rem;margin-top:2.5rem}
code,pre{font:13px ui-monospace,monospace;background:#f6f8fa}pre{padding:.8rem;overflow:auto;border-radius:6px}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.3rem .5rem;
text-align:left;vertical-align:top}th{background:#f6f8fa}tr:target{background:#fff8c5}nav a{margin-right:1rem}
.method{font-weight:bold;color:#1a7f37}`;

type Document = ReturnType<typeof buildOpenApiDocument>;

interface Operation {
  summary: string;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { description: string }>;
}

function endpoints(document: Document): string {
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, operation]) => {
        const [mediaType, body] = Object.entries(operation.requestBody?.content ?? {})[0] ?? ['', undefined];
        const schemaName = body?.schema.$ref.split('/').pop() ?? '';
        const responses = Object.entries(operation.responses)
          .map(([status, response]) => `<tr><td>${status}</td><td>${escape(response.description)}</td></tr>`)
          .join('');
        const bodyText = body
          ? ` Body: <code>${escape(mediaType)}</code>, schema
<a href="#schema-${schemaName}"><code>${schemaName}</code></a>.`
          : '';
        return `<h3 id="${escape(method === 'post' ? path : `${method}-${path}`)}"><span class="method">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(operation.summary)}.${bodyText}</p>
<table><tr><th>status</th><th>meaning</th></tr>${responses}</table>`;
      }),
    )
    .join('\n');
}

function languageCells(messages: Record<Language, string>): string {
  return SUPPORTED_LANGUAGES.map((language) => `<td>${escape(messages[language])}</td>`).join('');
}

/**
 * The human-readable API reference, rendered from the OpenAPI document and the catalogues of
 * `@spam-check/contracts` (the same sources as docs/api-reference.md). One self-contained HTML page: no
 * scripts, no external assets, so it works offline. Problem `type` URIs (`/docs#error-<CODE>`) land on
 * the row of their code.
 */
export function renderDocsPage(document: Document): string {
  const languageHeads = SUPPORTED_LANGUAGES.map((language) => `<th>${language}</th>`).join('');
  const reasons = REASON_CODES.map(
    (code) =>
      `<tr id="reason-${code}"><td><code>${code}</code></td>${languageCells(REASON_CATALOGUE[code])}</tr>`,
  ).join('\n');
  const errors = ERROR_CODES.map((code) => {
    const entry = ERROR_CATALOGUE[code];
    return `<tr id="error-${code}"><td><code>${code}</code></td><td>${entry.status}</td><td><code>${escape(
      problemType(code),
    )}</code></td>${languageCells(entry.detail)}</tr>`;
  }).join('\n');
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<h3 id="schema-${name}">${name}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style>${STYLE}</style></head>
<body>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<nav><a href="#endpoints">Endpoints</a><a href="#authentication">Authentication</a><a href="#reasons">Reason codes</a>
<a href="#errors">Error codes</a><a href="#schemas">Schemas</a><a href="/openapi.json">openapi.json</a></nav>
<p>${escape(document.info.description)}</p>
<h2 id="authentication">Authentication</h2>
<p>Obtain tokens at <code>POST /oauth/token</code> (form-encoded; grants <code>password</code> and
<code>refresh_token</code>; client credentials as HTTP Basic or in the body) and send the access token as
<code>Authorization: Bearer &lt;token&gt;</code>. Without a token: 401 <code>UNAUTHORIZED</code> with
<code>WWW-Authenticate: Bearer realm="spam-check"</code>; invalid, expired or revoked: 401
<code>INVALID_TOKEN</code> (<code>error="invalid_token"</code>); without scope <code>spam:check</code>: 403
<code>INSUFFICIENT_SCOPE</code>. Revoke with <code>POST /oauth/revoke</code> (RFC 7009).</p>
<p>Check requests are rate limited per client; every answer carries <code>RateLimit-Limit</code>,
<code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>, and a 429 adds <code>Retry-After</code>.</p>
<h2 id="endpoints">Endpoints</h2>
<p>Every path may be prefixed with a language: <code>/deapi/v1/spam/mail</code>, <code>/de/api/v1/spam/mail</code>,
<code>/froauth/token</code>. Errors are RFC 9457 problem details (<code>application/problem+json</code>) except
on the token endpoints, which answer RFC 6749 errors.</p>
${endpoints(document)}
<h2 id="reasons">Reason codes</h2>
<table><tr><th>code</th>${languageHeads}</tr>
${reasons}</table>
<h2 id="errors">Error codes</h2>
<table><tr><th>code</th><th>status</th><th>type</th>${languageHeads}</tr>
${errors}</table>
<h2 id="schemas">Schemas</h2>
${schemas}
</body></html>
`;
}

/** `GET /openapi.json` and `GET /docs`, rendered once at start. */
export function mountDocs(app: Express): void {
  const document = buildOpenApiDocument();
  const json = JSON.stringify(document);
  const html = renderDocsPage(document);
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(json);
  });
  app.get('/docs', (_req, res) => {
    res
      .type('html')
      .set({
        'Cache-Control': 'public, max-age=300',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
      })
      .send(html);
  });
  for (const path of ['/openapi.json', '/docs'])
    app.all(path, (_req, res, next) => {
      res.setHeader('Allow', 'GET, HEAD');
      next(new AppError('METHOD_NOT_ALLOWED'));
    });
}
