import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  REASON_CATALOGUE,
  REASON_CODES,
  SUPPORTED_LANGUAGES,
  problemType,
  type Language,
} from '@spam-check/contracts';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Starts Swagger UI on the generated document. Served as a file of its own, so the page's CSP needs no
 * 'unsafe-inline' script. No deep linking: the hash is left to the catalogue anchors (`#error-<CODE>`). No
 * persisted authorization: a token lives only as long as the tab. No validator: it would send the document
 * to a third party. Swagger UI draws above the catalogues after the page has scrolled to its hash: Chromium
 * and Firefox keep the row in view (scroll anchoring, as the browser test shows), Safari has no scroll
 * anchoring, hence the scroll once Swagger UI is done.
 */
export const DOCS_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: false,
  persistAuthorization: false,
  validatorUrl: null,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  onComplete: function () {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  },
});
`;

export const DOCS_STYLE = `
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1b1f24}
.catalogues,.docs-nav{max-width:1460px;margin:0 auto;padding:0 20px;box-sizing:border-box}
.docs-nav{padding-top:1rem}.docs-nav a{margin-right:1rem}
.catalogues h2{border-bottom:1px solid #d0d7de;padding-bottom:.3rem;margin-top:2.5rem}
.catalogues code{font:13px ui-monospace,monospace;background:#f6f8fa}
.catalogues table{border-collapse:collapse;width:100%;margin:1rem 0 3rem}
.catalogues td,.catalogues th{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
.catalogues th{background:#f6f8fa}.catalogues tr:target{background:#fff8c5}
`;

function languageCells(messages: Record<Language, string>): string {
  return SUPPORTED_LANGUAGES.map((language) => `<td>${escape(messages[language])}</td>`).join('');
}

/**
 * The reason and error catalogues, rendered in the HTML itself rather than by Swagger UI: a problem's
 * `type` URI (`/docs#error-<CODE>`) must land on its row when the page loads, before any script has run.
 */
function catalogues(): string {
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
  return `<section class="catalogues">
<h2 id="reasons">Reason codes</h2>
<table><tr><th>code</th>${languageHeads}</tr>
${reasons}</table>
<h2 id="errors">Error codes</h2>
<p>Errors are RFC 9457 problem details (<code>application/problem+json</code>), except on the token and
revocation endpoints, which answer RFC 6749 errors.</p>
<table><tr><th>code</th><th>status</th><th>type</th>${languageHeads}</tr>
${errors}</table>
</section>`;
}

/** The `/docs` page: Swagger UI's assets and the page's own, all from the gateway, then the catalogues. */
export function renderDocsPage(title: string, assetUrl: (name: string) => string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} reference</title>
<link rel="icon" type="image/png" href="${assetUrl('favicon-32x32.png')}">
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
<link rel="stylesheet" href="${assetUrl('docs.css')}">
</head>
<body>
<nav class="docs-nav"><a href="#reasons">Reason codes</a><a href="#errors">Error codes</a><a href="/openapi.json">openapi.json</a></nav>
<div id="swagger-ui"></div>
${catalogues()}
<script src="${assetUrl('swagger-ui-bundle.js')}"></script>
<script src="${assetUrl('docs.js')}"></script>
</body></html>
`;
}
