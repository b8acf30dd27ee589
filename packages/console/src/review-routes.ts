import {
  checkListSchema,
  clientIdSchema,
  feedbackReportsResultSchema,
  REVIEW_LIMITS,
  verdictSchema,
  type ReviewItem,
  type Verdict,
} from '@spam-check/contracts';
import { AppError, parseBody } from '@spam-check/service-kit';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { expectOk } from './api-answers';
import { formBody } from './guards';
import { t } from './pages';
import { reviewPage, type ReviewFilters } from './review-page';
import { tryRequest, type TryForm } from './try-check';
import { send, type ConsoleDeps, type SignedInView, type views } from './view';

/** The list's own query parameters, passed on to the admin API as they are (it validates them). */
const LIST_KEYS = ['verdict', 'kind', 'reason', 'reported', 'since', 'until', 'limit', 'cursor'] as const;
const field = z.string().max(1000).optional();
const pageQuery = z.strictObject({
  verdict: z.union([z.string().max(20), z.array(z.string().max(20)).max(3)]).optional(),
  kind: field,
  reason: field,
  reported: field,
  since: field,
  until: field,
  limit: field,
  cursor: field,
  /** After a correction: the check ids just reported, and how many reports were applied and refused. */
  corrected: z
    .string()
    .max(40 * REVIEW_LIMITS.reports)
    .optional(),
  applied: z.coerce.number().int().min(0).max(REVIEW_LIMITS.reports).optional(),
  refused: z.coerce.number().int().min(0).max(REVIEW_LIMITS.reports).optional(),
});
const correctionForm = z.strictObject({
  csrf: z.string(),
  back: z.string().max(4000).default(''),
  one: z
    .string()
    .max(200)
    .regex(/^[^:]+:(spam|ham)$/)
    .optional(),
  bulk: z.enum(['spam', 'ham']).optional(),
  ids: z.union([z.string().max(200), z.array(z.string().max(200)).max(REVIEW_LIMITS.reports)]).optional(),
});
/** A bulk correction posts one field per selected row, besides the token, the way back and the button. */
const FORM_FIELDS = REVIEW_LIMITS.reports + 10;
/** Trial checks of the corrected rows made at the same time. */
const AT_ONCE = 8;

/** A `datetime-local` value (the page's filter, in UTC) as RFC 3339; anything else is left to the API. */
const asUtc = (value: string) =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value)
    ? `${value}${value.length === 16 ? ':00' : ''}Z`
    : value;

/** The list query of the page (filters and cursor), without empty fields, with times as RFC 3339. */
function listQuery(query: z.infer<typeof pageQuery>): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of LIST_KEYS)
    for (const value of [query[key] ?? []].flat())
      if (value !== '') out.append(key, key === 'since' || key === 'until' ? asUtc(value) : value);
  return out;
}

/** An RFC 3339 time in UTC as the page's `datetime-local` field shows it. */
const asLocal = (value: string | undefined) =>
  value?.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?)(\.\d+)?Z$/, '$1') ?? '';

function filtersOf(query: z.infer<typeof pageQuery>): ReviewFilters {
  return {
    verdict: [query.verdict ?? []].flat(),
    kind: query.kind ?? '',
    reason: query.reason ?? '',
    reported: query.reported ?? '',
    since: asLocal(query.since),
    until: asLocal(query.until),
    limit: query.limit ?? '',
  };
}

/**
 * What a new check of an item's content would be: the kept content as it was submitted, else the stored
 * canonical text (the form the text detector learns from, so a near-duplicate of what was reported); a mail
 * check of a client that keeps no content has nothing to check again.
 */
function trialOf(item: ReviewItem): TryForm | undefined {
  const content = item.content;
  if (content?.email !== undefined)
    return content.body === undefined
      ? { kind: 'mail', email: content.email }
      : { kind: 'hybrid', ...content, title: content.title ?? '' };
  if (content?.body !== undefined) return { kind: 'text', ...content, title: content.title ?? '' };
  if (item.preview?.body !== undefined)
    return { kind: 'text', title: item.preview.title ?? '', body: item.preview.body };
  return undefined;
}

/** The reports a correction form asks for: one row's button, else the selected rows with the bulk button's label. */
function reportsOf(posted: z.infer<typeof correctionForm>, v: SignedInView) {
  const [oneId, oneLabel] = posted.one?.split(':') ?? [];
  const ids = [posted.ids ?? []].flat();
  if (oneId !== undefined && oneLabel !== undefined)
    return { one: oneId, reports: [{ check_id: oneId, label: oneLabel }] };
  if (posted.bulk === undefined || ids.length === 0)
    throw new AppError('VALIDATION_FAILED', {
      errors: [{ path: 'ids', message: t(v.ctx, 'nothingSelected') }],
    });
  const label = posted.bulk;
  return { one: undefined, reports: ids.map((checkId) => ({ check_id: checkId, label })) };
}

/** What the page's two routes share: the client from the path, its admin API calls, the trials. */
function reviewCalls(deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const clientPath = (id: string) => `/api/v1/admin/clients/${encodeURIComponent(id)}`;
  return {
    idOf: (req: Request, v: SignedInView) =>
      parseBody(z.object({ id: clientIdSchema }), req.params, v.ctx.language).id,
    list: async (v: SignedInView, id: string, query: URLSearchParams) =>
      checkListSchema.parse(
        expectOk(await deps.api('GET', `${clientPath(id)}/checks?${query.toString()}`, view.apiMeta(v))),
      ),
    report: async (v: SignedInView, id: string, reports: { check_id: string; label: string }[]) =>
      feedbackReportsResultSchema.parse(
        expectOk(await deps.api('POST', `${clientPath(id)}/feedback`, view.apiMeta(v), { reports })),
      ).results,
    /** What a new check of each item's content says now (trial checks as the client, AT_ONCE at a time). */
    checkedNow: async (v: SignedInView, id: string, items: ReviewItem[]) => {
      const now = new Map<string, Verdict | null>();
      for (let start = 0; start < items.length; start += AT_ONCE)
        await Promise.all(
          items.slice(start, start + AT_ONCE).map(async (item) => {
            const trial = trialOf(item);
            if (!trial) return void now.set(item.id, null);
            const { kind, body } = tryRequest(trial);
            const answer = await deps.api('POST', `${clientPath(id)}/try/${kind}`, view.apiMeta(v), body);
            now.set(item.id, z.object({ verdict: verdictSchema }).parse(expectOk(answer)).verdict);
          }),
        );
      return now;
    },
  };
}

/**
 * `/console/clients/<id>/review` (docs/review.md, "From the console"): a page of the client's checks from
 * the admin API, with filters and a cursor; corrections are reports made as the client (one row's button, or
 * the selected rows), posted as a plain form and answered with a redirect to the same view, where the
 * corrected rows show what a trial check of their content says now.
 */
export function reviewRoutes(router: Router, deps: ConsoleDeps, view: ReturnType<typeof views>) {
  const calls = reviewCalls(deps, view);
  router.get(
    '/clients/:id/review',
    view.page(async (req: Request, res: Response, v: SignedInView) => {
      const id = calls.idOf(req, v);
      const query = parseBody(pageQuery, req.query, v.ctx.language);
      const list = listQuery(query);
      const page = await calls.list(v, id, list);
      const corrected = new Set(query.corrected?.split(',') ?? []);
      const now = await calls.checkedNow(
        v,
        id,
        page.items.filter((item) => corrected.has(item.id)),
      );
      const outcome =
        query.applied === undefined
          ? {}
          : { outcome: { applied: query.applied, refused: query.refused ?? 0 } };
      send(
        res,
        200,
        reviewPage(v.ctx, {
          id,
          filters: filtersOf(query),
          back: list.toString(),
          items: page.items,
          nextCursor: page.next_cursor,
          first: query.cursor === undefined,
          now,
          ...outcome,
        }),
      );
    }),
  );
  router.post(
    '/clients/:id/review',
    formBody(deps.maxBodyBytes, FORM_FIELDS),
    view.page(async (req: Request, res: Response, v: SignedInView) => {
      const id = calls.idOf(req, v);
      const posted = parseBody(correctionForm, req.body, v.ctx.language);
      const { one, reports } = reportsOf(posted, v);
      const results = await calls.report(v, id, reports);
      const applied = results.flatMap((result) => ('check_id' in result ? [result.check_id ?? ''] : []));
      // The way back is the list query the page was shown with; only its own keys are kept.
      const back = new URLSearchParams(
        [...new URLSearchParams(posted.back)].filter(([key]) =>
          (LIST_KEYS as readonly string[]).includes(key),
        ),
      );
      back.set('corrected', applied.join(','));
      back.set('applied', String(applied.length));
      back.set('refused', String(results.length - applied.length));
      const fragment = one === undefined ? '' : `#c-${encodeURIComponent(one)}`;
      res.redirect(
        303,
        `${v.ctx.base}/clients/${encodeURIComponent(id)}/review?${back.toString()}${fragment}`,
      );
    }),
  );
}
