import {
  REASON_CATALOGUE,
  reasonMessage,
  type ClientStats,
  type ConsoleMessageKey,
  type ReasonCode,
  type RecentFeedbackEntry,
  type Verdict,
} from '@spam-check/contracts';
import { akismetKeySection } from './akismet-key';
import { html, jsonBlock, type Html } from './html';
import { layout, t, tableHead, type FieldErrors, type PageContext } from './pages';
import type { SettingsField, SettingsFormValues } from './settings-form';

const VERDICTS: Verdict[] = ['ham', 'suspicious', 'spam'];
const KINDS = ['mail', 'text', 'hybrid'] as const;

/** A panel's data, or why it has none (embedded mode answers 503 for what lives in Redis). */
export type Panel<T> = { ok: true; value: T } | { ok: false };

export interface TryState {
  values: Record<string, string>;
  result?: { verdict: Verdict; score: number; reasons: { code: string; message: string }[] };
  errors?: FieldErrors;
}

export interface ClientPageState {
  id: string;
  interval: 'day' | 'hour';
  stats: Panel<ClientStats>;
  feedback: Panel<RecentFeedbackEntry[]>;
  settings: Panel<SettingsFormValues>;
  settingsErrors?: FieldErrors;
  settingsSaved?: boolean;
  tryIt: TryState;
}

function fieldError(errors: FieldErrors | undefined, path: string, id: string) {
  const message = errors?.[path];
  return message ? html`<p class="field-error" id="${id}-error">${message}</p>` : '';
}

function described(errors: FieldErrors | undefined, path: string, id: string) {
  return errors?.[path] ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
}

const sum = (checks: ClientStats['totals'], verdict: Verdict) =>
  KINDS.reduce((total, kind) => total + checks[kind][verdict], 0);

/** The links between daily and hourly figures, the chart (drawn by console.js) and its data as a table. */
function chartBlock(ctx: PageContext, state: ClientPageState, stats: ClientStats): Html {
  const chart = {
    labels: Object.fromEntries(VERDICTS.map((verdict) => [verdict, t(ctx, verdict)])),
    startLabel: t(ctx, 'start'),
    hourly: state.interval === 'hour',
    x: stats.series.map((point) => Date.parse(point.start) / 1000),
    ...Object.fromEntries(
      VERDICTS.map((verdict) => [verdict, stats.series.map((point) => sum(point.checks, verdict))]),
    ),
  };
  const empty = VERDICTS.every((verdict) => sum(stats.totals, verdict) === 0);
  const here = `${ctx.base}/clients/${encodeURIComponent(state.id)}`;
  return html`<p class="intervals">
      ${state.interval === 'day' ? html`<strong>${t(ctx, 'byDay')}</strong>` : html`<a href="${here}?interval=day">${t(ctx, 'byDay')}</a>`}
      ${state.interval === 'hour' ? html`<strong>${t(ctx, 'byHour')}</strong>` : html`<a href="${here}?interval=hour">${t(ctx, 'byHour')}</a>`}
    </p>
    <figure>
      <div id="chart" class="chart" role="img" aria-label="${t(ctx, 'chartLabel')}"></div>
      <figcaption>${t(ctx, 'chartLabel')}${empty ? html` · ${t(ctx, 'noChecks')}` : ''}</figcaption>
    </figure>
    <details>
      <summary>${t(ctx, 'chartTable')}</summary>
      <div class="scroll">
        <table id="series">
          ${tableHead(ctx, ['start', ...VERDICTS])}
          <tbody>
            ${stats.series.map(
              (point) =>
                html`<tr>
                  <th scope="row">${point.start.slice(0, 16).replace('T', ' ')}</th>
                  ${VERDICTS.map((v) => html`<td>${sum(point.checks, v)}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
    <script type="application/json" id="chart-data">
      ${jsonBlock(chart)}
    </script>`;
}

function totalsTable(ctx: PageContext, stats: ClientStats): Html {
  const latency = (kind: (typeof KINDS)[number]) =>
    `${stats.latency_ms[kind].p50 ?? '–'} / ${stats.latency_ms[kind].p99 ?? '–'}`;
  return html`<h3>${t(ctx, 'totals')}</h3>
    <div class="scroll">
      <table id="totals">
        ${tableHead(ctx, ['kind', ...VERDICTS, 'latency'])}
        <tbody>
          ${KINDS.map(
            (kind) =>
              html`<tr>
                <th scope="row">${t(ctx, kind)}</th>
                ${VERDICTS.map((v) => html`<td>${stats.totals[kind][v]}</td>`)}
                <td>${latency(kind)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function topReasonsTable(ctx: PageContext, stats: ClientStats): Html {
  return html`<h3>${t(ctx, 'topReasons')}</h3>
    ${
      stats.top_reasons.length === 0
        ? html`<p>${t(ctx, 'noChecks')}</p>`
        : html`<div class="scroll">
            <table id="top-reasons">
              ${tableHead(ctx, ['reason', 'count'])}
              <tbody>
                ${stats.top_reasons.map(
                  (reason) =>
                    html`<tr>
                      <td>
                        <code>${reason.code}</code><br /><span class="muted"
                          >${reason.code in REASON_CATALOGUE ? reasonMessage(reason.code as ReasonCode, ctx.language).replace(/\{\w+\}/g, '…') : ''}</span
                        >
                      </td>
                      <td>${reason.count}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}

function statsSection(ctx: PageContext, state: ClientPageState): Html {
  if (!state.stats.ok) return html`<p class="note">${t(ctx, 'needsRedis')}</p>`;
  const stats = state.stats.value;
  return html`${chartBlock(ctx, state, stats)} ${totalsTable(ctx, stats)} ${topReasonsTable(ctx, stats)}`;
}

function feedbackSection(ctx: PageContext, state: ClientPageState): Html {
  if (!state.feedback.ok) return html`<p class="note">${t(ctx, 'needsRedis')}</p>`;
  if (state.feedback.value.length === 0) return html`<p>${t(ctx, 'noFeedback')}</p>`;
  return html`<div class="scroll">
    <table id="feedback">
      ${tableHead(ctx, ['when', 'label', 'appliedTo', 'checkId'])}
      <tbody>
        ${state.feedback.value.map(
          (entry) =>
            html`<tr>
              <td>${entry.at.slice(0, 19).replace('T', ' ')}</td>
              <td>${t(ctx, entry.label)}</td>
              <td>
                ${entry.applied_to.map((part) => t(ctx, part === 'email' ? 'mail' : 'text')).join(', ')}
              </td>
              <td><code>${entry.check_id ?? '–'}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** The settings form's inputs, each with its label and, after a refused change, the API's message. */
function settingsFields(ctx: PageContext, values: SettingsFormValues, errors: FieldErrors | undefined) {
  const id = (name: string) => `s-${name.replace('.', '-')}`;
  const input = (name: SettingsField, label: ConsoleMessageKey, mode: 'decimal' | 'text' = 'decimal') =>
    html`<label for="${id(name)}">${t(ctx, label)}</label>
      <input
        id="${id(name)}"
        name="${name}"
        inputmode="${mode}"
        value="${values[name] ?? ''}"
        ${described(errors, name, id(name))}
      />
      ${fieldError(errors, name, id(name))}`;
  const list = (name: SettingsField, label: ConsoleMessageKey) =>
    html`<label for="${id(name)}">${t(ctx, label)}</label>
      <textarea id="${id(name)}" name="${name}" rows="3" ${described(errors, name, id(name))}>
${values[name] ?? ''}</textarea>
      ${fieldError(errors, name, id(name))}`;
  const select = (name: SettingsField, label: ConsoleMessageKey, options: [string, ConsoleMessageKey][]) =>
    html`<label for="${id(name)}">${t(ctx, label)}</label>
      <select id="${id(name)}" name="${name}" ${described(errors, name, id(name))}>
        <option value="">${t(ctx, 'operatorDefault')}</option>
        ${options.map(([value, text]) => html`<option value="${value}" ${values[name] === value ? html` selected` : ''}>${t(ctx, text)}</option>`)}
      </select>
      ${fieldError(errors, name, id(name))}`;
  /** A setting that is on or off (or the operator default). */
  const yesNo = (name: SettingsField, label: ConsoleMessageKey) =>
    select(name, label, [
      ['true', 'yes'],
      ['false', 'no'],
    ]);
  return { input, list, select, yesNo };
}

/** A form of the client's page posting to `<client>/<action>` with the session's CSRF token. */
function clientForm(
  ctx: PageContext,
  clientId: string,
  form: { action: string; id: string },
  fields: Html,
): Html {
  return html`<form
    method="post"
    action="${ctx.base}/clients/${encodeURIComponent(clientId)}/${form.action}"
    class="stack"
    id="${form.id}"
  >
    <input type="hidden" name="csrf" value="${ctx.signedIn?.csrf ?? ''}" />
    ${fields}
  </form>`;
}

function settingsSection(ctx: PageContext, state: ClientPageState): Html {
  if (!state.settings.ok) return html`<p class="note">${t(ctx, 'needsRedis')}</p>`;
  const errors = state.settingsErrors;
  const { input, list, select, yesNo } = settingsFields(ctx, state.settings.value, errors);
  return html`<p>${t(ctx, 'settingsHelp')}</p>
    ${state.settingsSaved ? html`<p class="ok" role="status">${t(ctx, 'saved')}</p>` : ''}
    ${
      errors
        ? html`<div class="error" role="alert">
            <p>${t(ctx, 'notSaved')}</p>
            <ul>
              ${Object.entries(errors ?? {}).map(([path, message]) => html`<li><code>${path}</code>: ${message}</li>`)}
            </ul>
          </div>`
        : ''
    }
    ${clientForm(
      ctx,
      state.id,
      { action: 'settings', id: 'settings-form' },
      html`<fieldset>
          <legend>${t(ctx, 'mail')}</legend>
          ${input('mail.spam_threshold', 'spamThreshold')}${input('mail.suspicious_threshold', 'suspiciousThreshold')}
          ${list('mail.allow', 'allow')}${list('mail.deny', 'deny')}
        </fieldset>
        <fieldset>
          <legend>${t(ctx, 'text')}</legend>
          ${input('text.spam_threshold', 'spamThreshold')}${input('text.suspicious_threshold', 'suspiciousThreshold')}
          ${list('text.deny_terms', 'denyTerms')}
          ${select('text.llm_mode', 'llmMode', [
            ['never', 'never'],
            ['band', 'band'],
            ['always', 'always'],
          ])}
        </fieldset>
        <fieldset>
          <legend>${t(ctx, 'siteRules')}</legend>
          ${input('text_rules.allowed_languages', 'allowedLanguages', 'text')}${input('text_rules.max_links', 'maxLinks')}
        </fieldset>
        <fieldset>
          <legend>${t(ctx, 'hybrid')}</legend>
          ${yesNo('hybrid.step_by_step', 'stepByStep')}
        </fieldset>
        <fieldset>
          <legend>${t(ctx, 'campaigns')}</legend>
          ${yesNo('campaigns.share', 'campaignShare')} ${yesNo('campaigns.protect', 'campaignProtect')}
        </fieldset>
        <button type="submit">${t(ctx, 'save')}</button>`,
    )}`;
}

function tryItSection(ctx: PageContext, state: ClientPageState): Html {
  const { values, result, errors } = state.tryIt;
  const kind = values.kind ?? 'text';
  const field = (name: string, label: ConsoleMessageKey, multiline = false) => {
    const id = `t-${name}`;
    return html`<label for="${id}">${t(ctx, label)}</label>
      ${multiline ? html`<textarea id="${id}" name="${name}" rows="4" ${described(errors, name, id)}>${values[name] ?? ''}</textarea>` : html`<input id="${id}" name="${name}" value="${values[name] ?? ''}" ${described(errors, name, id)} />`}
      ${fieldError(errors, name, id)}`;
  };
  return html`<p>${t(ctx, 'tryHelp')}</p>
    ${clientForm(
      ctx,
      state.id,
      { action: 'try#try', id: 'try-form' },
      html`<label for="t-kind">${t(ctx, 'checkKind')}</label>
        <select id="t-kind" name="kind">
          ${KINDS.map((k) => html`<option value="${k}" ${k === kind ? html` selected` : ''}>${t(ctx, k)}</option>`)}
        </select>
        ${field('email', 'email')}${field('title', 'titleField')}${field('sub_title', 'subTitle')}${field('body', 'body', true)}
        <button type="submit">${t(ctx, 'run')}</button>`,
    )}
    ${
      result
        ? html`<div id="try-result" role="status" class="result verdict-${result.verdict}">
            <h3>${t(ctx, 'result')}</h3>
            <p>
              ${t(ctx, 'verdict')}:
              <strong data-verdict="${result.verdict}">${t(ctx, result.verdict)}</strong> ·
              ${t(ctx, 'score')}: ${result.score.toFixed(3)}
            </p>
            <h4>${t(ctx, 'reasons')}</h4>
            <ul>
              ${result.reasons.map((reason) => html`<li><code>${reason.code}</code> ${reason.message}</li>`)}
            </ul>
          </div>`
        : ''
    }`;
}

export function clientPage(ctx: PageContext, state: ClientPageState): string {
  return layout(
    ctx,
    state.id,
    html`<p><a href="${ctx.base}/clients">← ${t(ctx, 'allClients')}</a></p>
      <h1>${t(ctx, 'client')} <code>${state.id}</code></h1>
      <p>
        <a href="${ctx.base}/clients/${encodeURIComponent(state.id)}/review" id="review-link"
          >${t(ctx, 'review')} →</a
        >
      </p>
      <section aria-labelledby="h-traffic">
        <h2 id="h-traffic">${t(ctx, 'traffic')}</h2>
        ${statsSection(ctx, state)}
      </section>
      <section aria-labelledby="h-feedback">
        <h2 id="h-feedback">${t(ctx, 'recentFeedback')}</h2>
        ${feedbackSection(ctx, state)}
      </section>
      <section aria-labelledby="h-settings" id="settings">
        <h2 id="h-settings">${t(ctx, 'settings')}</h2>
        ${settingsSection(ctx, state)}
        <p>
          <a href="${ctx.base}/clients/${encodeURIComponent(state.id)}/webhooks" id="webhooks-link"
            >${t(ctx, 'webhooks')} →</a
          >
        </p>
      </section>
      <section aria-labelledby="h-akismet" id="akismet">
        <h2 id="h-akismet">${t(ctx, 'akismetKey')}</h2>
        ${akismetKeySection(ctx, state.id)}
      </section>
      <section aria-labelledby="h-try" id="try">
        <h2 id="h-try">${t(ctx, 'tryIt')}</h2>
        ${tryItSection(ctx, state)}
      </section>`,
    { chart: state.stats.ok },
  );
}
