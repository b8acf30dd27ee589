import { REASON_CODES, type ConsoleMessageKey, type ReviewItem, type Verdict } from '@spam-check/contracts';
import { html, type Html } from './html';
import { layout, t, type PageContext } from './pages';

/** The list's filters as the page's form holds them (empty: no filter). */
export interface ReviewFilters {
  verdict: string[];
  kind: string;
  reason: string;
  reported: string;
  since: string;
  until: string;
  limit: string;
}

export interface ReviewPageState {
  id: string;
  filters: ReviewFilters;
  /** The query of the page shown (filters and cursor), carried by the correction form to come back to it. */
  back: string;
  items: ReviewItem[];
  nextCursor: string | null;
  /** The first page (no cursor): no link back to the newest checks. */
  first: boolean;
  /** What a new check of a just corrected item's content says now; null: nothing kept to check again. */
  now: Map<string, Verdict | null>;
  /** After a correction: how many reports were applied and refused. */
  outcome?: { applied: number; refused: number };
}

const VERDICTS = ['ham', 'suspicious', 'spam'] as const;
const KINDS = ['mail', 'text', 'hybrid'] as const;
const COLUMNS = [
  'time',
  'kind',
  'verdict',
  'reasons',
  'content',
  'report',
  'checkedNow',
  'correct',
] as const satisfies readonly ConsoleMessageKey[];

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? 'selected' : ''}>${label}</option>`;
}

function select(id: string, label: string, name: string, options: Html[]): Html {
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <select id="${id}" name="${name}">
      ${options}
    </select>
  </div>`;
}

function filterForm(ctx: PageContext, path: string, filters: ReviewFilters): Html {
  const any = (value: string) => option('', t(ctx, 'any'), value === '');
  return html`<form method="get" action="${path}" class="filters" id="review-filters">
    <fieldset class="verdicts">
      <legend>${t(ctx, 'verdict')}</legend>
      ${VERDICTS.map(
        (verdict) =>
          html`<label class="inline"
            ><input
              type="checkbox"
              name="verdict"
              value="${verdict}"
              ${filters.verdict.includes(verdict) ? 'checked' : ''}
            />
            ${t(ctx, verdict)}</label
          >`,
      )}
    </fieldset>
    ${select('f-kind', t(ctx, 'kind'), 'kind', [
      any(filters.kind),
      ...KINDS.map((kind) => option(kind, t(ctx, kind), filters.kind === kind)),
    ])}
    ${select('f-reason', t(ctx, 'reason'), 'reason', [
      any(filters.reason),
      ...REASON_CODES.map((code) => option(code, code, filters.reason === code)),
    ])}
    ${select('f-reported', t(ctx, 'reported'), 'reported', [
      any(filters.reported),
      option('true', t(ctx, 'reportedYes'), filters.reported === 'true'),
      option('false', t(ctx, 'reportedNo'), filters.reported === 'false'),
    ])}
    <div class="field">
      <label for="f-since">${t(ctx, 'since')}</label>
      <input id="f-since" name="since" type="datetime-local" value="${filters.since}" />
    </div>
    <div class="field">
      <label for="f-until">${t(ctx, 'until')}</label>
      <input id="f-until" name="until" type="datetime-local" value="${filters.until}" />
    </div>
    ${select(
      'f-limit',
      t(ctx, 'perPage'),
      'limit',
      ['20', '50', '100'].map((limit) => option(limit, limit, (filters.limit || '50') === limit)),
    )}
    <div class="field"><button type="submit">${t(ctx, 'showChecks')}</button></div>
  </form>`;
}

/** What a moderator reads of a check: the kept content, else the stored preview. */
function shown(item: ReviewItem): Html {
  const fields = item.content ?? item.preview ?? {};
  const parts = Object.entries(fields).filter(([, value]) => typeof value === 'string' && value !== '');
  if (parts.length === 0) return html`<span class="muted">—</span>`;
  return html`${parts.map(
    ([name, value]) => html`<div><span class="muted">${name}:</span> ${String(value)}</div>`,
  )}`;
}

function verdictCell(ctx: PageContext, verdict: Verdict, extra = ''): Html {
  return html`<span class="verdict-${verdict}"
      ><strong data-verdict="${verdict}">${t(ctx, verdict)}</strong></span
    >${extra}`;
}

function nowCell(ctx: PageContext, state: ReviewPageState, item: ReviewItem): Html {
  if (!state.now.has(item.id)) return html``;
  const verdict = state.now.get(item.id);
  if (!verdict) return html`<span class="muted" data-now="">${t(ctx, 'noContentKept')}</span>`;
  return html`<span class="verdict-${verdict}" data-now="${verdict}"
    ><strong>${t(ctx, verdict)}</strong></span
  >`;
}

function row(ctx: PageContext, state: ReviewPageState, item: ReviewItem): Html {
  const label = item.report?.label;
  const button = (value: 'spam' | 'ham', key: string, text: string) =>
    html`<button type="submit" name="one" value="${item.id}:${value}" data-key="${key}">${text}</button>`;
  return html`<tr id="c-${item.id}" data-check="${item.id}" data-report="${label ?? ''}" tabindex="-1">
    <td>
      <input type="checkbox" name="ids" value="${item.id}" aria-label="${t(ctx, 'select')} ${item.id}" />
    </td>
    <td><time datetime="${item.created_at}">${item.created_at.replace('T', ' ').slice(0, 19)}</time></td>
    <td>${t(ctx, item.kind)}</td>
    <td>${verdictCell(ctx, item.verdict, ` ${item.score.toFixed(2)}`)}</td>
    <td>${item.reasons.map((code) => html`<code>${code}</code> `)}</td>
    <td class="content">${shown(item)}</td>
    <td>${label ? verdictCell(ctx, label) : html`<span class="muted">—</span>`}</td>
    <td>${nowCell(ctx, state, item)}</td>
    <td class="actions">
      ${button('spam', 's', t(ctx, 'markSpam'))} ${button('ham', 'h', t(ctx, 'markHam'))}
      ${label ? button(label === 'spam' ? 'ham' : 'spam', 'u', t(ctx, 'undo')) : ''}
    </td>
  </tr>`;
}

function correctionForm(ctx: PageContext, path: string, state: ReviewPageState): Html {
  if (state.items.length === 0) return html`<p id="review-empty">${t(ctx, 'noReviewChecks')}</p>`;
  return html`<form method="post" action="${path}" id="review-form">
    <input type="hidden" name="csrf" value="${ctx.signedIn?.csrf ?? ''}" />
    <input type="hidden" name="back" value="${state.back}" />
    <fieldset class="bulk">
      <legend>${t(ctx, 'selected')}</legend>
      <button type="submit" name="bulk" value="spam" id="bulk-spam">${t(ctx, 'markSpam')}</button>
      <button type="submit" name="bulk" value="ham" id="bulk-ham">${t(ctx, 'markHam')}</button>
    </fieldset>
    <div class="scroll">
      <table id="review-rows">
        <thead>
          <tr>
            <th scope="col">
              <input type="checkbox" id="select-all" hidden aria-label="${t(ctx, 'selectAll')}" />
            </th>
            ${COLUMNS.map((key) => html`<th scope="col">${t(ctx, key)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${state.items.map((item) => row(ctx, state, item))}
        </tbody>
      </table>
    </div>
  </form>`;
}

/** `/console/clients/<id>/review`: the filters, the checks with a button per row, bulk correction, paging. */
export function reviewPage(ctx: PageContext, state: ReviewPageState): string {
  const clientPath = `${ctx.base}/clients/${encodeURIComponent(state.id)}`;
  const path = `${clientPath}/review`;
  const filterQuery = new URLSearchParams(state.back);
  filterQuery.delete('cursor');
  const next =
    state.nextCursor === null
      ? ''
      : html`<a
          id="older"
          href="${path}?${new URLSearchParams([...filterQuery, ['cursor', state.nextCursor]]).toString()}"
          >${t(ctx, 'olderChecks')} →</a
        >`;
  const newest = state.first
    ? ''
    : html`<a id="newest" href="${path}?${filterQuery.toString()}">← ${t(ctx, 'newestChecks')}</a>`;
  const outcome = state.outcome
    ? html`<p class="ok" role="status" id="review-outcome">
        ${t(ctx, 'reportsApplied')}
        ${state.outcome.applied}${
          state.outcome.refused > 0 ? html`, ${t(ctx, 'reportsRefused')} ${state.outcome.refused}` : ''
        }
      </p>`
    : '';
  return layout(
    ctx,
    `${state.id} · ${t(ctx, 'review')}`,
    html`<p><a href="${clientPath}">← ${t(ctx, 'client')} ${state.id}</a></p>
      <h1>${t(ctx, 'review')} <code>${state.id}</code></h1>
      <p>${t(ctx, 'reviewHelp')}</p>
      <p class="muted" id="review-keys">${t(ctx, 'reviewKeys')}</p>
      <h2 class="visually-hidden">${t(ctx, 'filters')}</h2>
      ${filterForm(ctx, path, state.filters)} ${outcome} ${correctionForm(ctx, path, state)}
      <nav class="pages">${newest} ${next}</nav>`,
    { script: 'review.js' },
  );
}
