import {
  consoleMessage,
  errorMessages,
  type AdminClient,
  type ConsoleMessageKey,
  type ErrorCode,
  type Language,
} from '@spam-check/contracts';
import { html, type Html } from './html';

/** Where a page is: its language and the console's base path in that language (`/de/console`). */
export interface PageContext {
  language: Language;
  languages: readonly Language[];
  base: string;
  /** The path below the base, for the language switch (`/clients/web`). */
  here: string;
  signedIn?: { username: string; csrf: string };
}

export interface FieldErrors {
  [path: string]: string;
}

export const t = (ctx: PageContext, key: ConsoleMessageKey) => consoleMessage(key, ctx.language);

/** A table's head: a column header for each message key, in order. */
export function tableHead(ctx: PageContext, keys: readonly ConsoleMessageKey[]): Html {
  return html`<thead>
    <tr>
      ${keys.map((key) => html`<th scope="col">${t(ctx, key)}</th>`)}
    </tr>
  </thead>`;
}

export function layout(
  ctx: PageContext,
  title: string,
  main: Html,
  options: { chart?: boolean; script?: 'review.js' } = {},
): string {
  const assets = '/console/assets';
  const switcher = ctx.languages.map((language) =>
    language === ctx.language
      ? html`<li><span aria-current="true">${language.toUpperCase()}</span></li>`
      : html`<li>
          <a href="/${language}/console${ctx.here}" hreflang="${language}" lang="${language}"
            >${language.toUpperCase()}</a
          >
        </li>`,
  );
  const user = ctx.signedIn
    ? html`<form method="post" action="${ctx.base}/sign-out" class="sign-out">
        <span>${t(ctx, 'signedInAs')} <strong>${ctx.signedIn.username}</strong></span>
        <input type="hidden" name="csrf" value="${ctx.signedIn.csrf}" />
        <button type="submit">${t(ctx, 'signOut')}</button>
      </form>`
    : '';
  return html`<!doctype html>
    <html lang="${ctx.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${t(ctx, 'title')}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${assets}/console.css" />
        ${
          options.chart
            ? html`<link rel="stylesheet" href="${assets}/uPlot.min.css" />
                <script src="${assets}/uPlot.iife.min.js" defer></script>
                <script src="${assets}/console.js" defer></script>`
            : ''
        }
        ${options.script ? html`<script src="${assets}/${options.script}" defer></script>` : ''}
      </head>
      <body>
        <a class="skip" href="#main">${t(ctx, 'skip')}</a>
        <header>
          <a class="brand" href="${ctx.base}/clients">${t(ctx, 'title')}</a>
          <nav aria-label="${t(ctx, 'language')}">
            <ul class="languages">
              ${switcher}
            </ul>
          </nav>
          ${user}
        </header>
        <main id="main" tabindex="-1">${main}</main>
      </body>
    </html> `.value;
}

export function signInPage(
  ctx: PageContext,
  state: { message?: ConsoleMessageKey; username?: string } = {},
): string {
  return layout(
    ctx,
    t(ctx, 'signIn'),
    html`<h1>${t(ctx, 'signIn')}</h1>
      <p>${t(ctx, 'signInHelp')}</p>
      ${state.message ? html`<p class="error" role="alert">${t(ctx, state.message)}</p>` : ''}
      <form method="post" action="${ctx.base}/sign-in" class="stack">
        <label for="username">${t(ctx, 'username')}</label>
        <input
          id="username"
          name="username"
          autocomplete="username"
          required
          value="${state.username ?? ''}"
          autofocus
        />
        <label for="password">${t(ctx, 'password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">${t(ctx, 'signIn')}</button>
      </form>`,
  );
}

function llmLine(ctx: PageContext, host: string | null | undefined) {
  if (host === undefined) return html`<p id="llm-endpoint">${t(ctx, 'llmUnknown')}</p>`;
  if (host === null) return html`<p id="llm-endpoint">${t(ctx, 'llmNone')}</p>`;
  return html`<p id="llm-endpoint">${t(ctx, 'llmEndpoint')} <code>${host}</code></p>`;
}

export function clientsPage(
  ctx: PageContext,
  clients: AdminClient[],
  llmHost: string | null | undefined,
): string {
  return layout(
    ctx,
    t(ctx, 'clients'),
    html`<h1>${t(ctx, 'clients')}</h1>
      <table>
        ${tableHead(ctx, ['client', 'scopes'])}
        <tbody>
          ${clients.map(
            (client) =>
              html`<tr>
                <td><a href="${ctx.base}/clients/${encodeURIComponent(client.id)}">${client.id}</a></td>
                <td>${client.scopes.join(', ')}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${llmLine(ctx, llmHost)}`,
  );
}

export function errorPage(ctx: PageContext, code: ErrorCode): string {
  const { title, detail } = errorMessages(code, ctx.language);
  return layout(
    ctx,
    title,
    html`<h1>${title}</h1>
      <p role="alert">${detail}</p>
      <p><a href="${ctx.base}/clients">${t(ctx, 'allClients')}</a></p>`,
  );
}
