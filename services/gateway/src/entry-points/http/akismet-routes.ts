import { randomUUID } from 'node:crypto';
import {
  createFeedbackSchemas,
  createRequestSchemas,
  type CheckLimits,
  type FeedbackPart,
  type Language,
} from '@spam-check/contracts';
import type { ClientSettingsStore } from '@spam-check/client-settings';
import { AppError, clientAddress, elapsedMs, parseBody, requestContext } from '@spam-check/service-kit';
import type { CheckMemory } from '@spam-check/client-state';
import express, { Router, type Request, type Response } from 'express';
import type { AkismetKeyVerifier } from '../../data-access/akismet-keys';
import type { HttpDetector } from '../../data-access/detector-client';
import { sendFeedback } from '../../data-access/detectors';
import { hybridResultOf } from '../../data-access/hybrid-parts';
import type { UsageStore } from '../../data-access/usage-store';
import {
  checkOf,
  DISCARD_SCORE,
  isSpam,
  languageOf,
  REQUIRED_FIELDS,
  type AkismetCheck,
  type AkismetForm,
} from '../../domain/akismet';
import type { Caller } from '../../domain/authorization';
import type { CheckedItem } from '../../domain/review-item';
import { routeFeedback } from '../../domain/feedback';
import { runHybridCheck, type CallMeta, type DetectorTransport } from '../../domain/hybrid-check';
import type { clientRateLimit } from './rate-limit';

export const AKISMET_PREFIX = '/1.1';
const THANKS = 'Thanks for making the web a better place.';
/** Our keys as a host name's first label (`<key>.<host>`), so any host name may carry one. */
const KEY_LABEL = /^([0-9a-f]{2,200}-[0-9a-f]{32})\./i;

export interface AkismetDeps {
  verifyKey: AkismetKeyVerifier;
  limitClient: ReturnType<typeof clientRateLimit>;
  transports: { parallel: DetectorTransport; stepByStep: DetectorTransport };
  detectors: Record<FeedbackPart, HttpDetector>;
  hybrids: CheckMemory;
  settings: ClientSettingsStore | undefined;
  usage: UsageStore | undefined;
  /** Keeps checks for the client's review list and raises their webhook events; never throws or waits. */
  keep: (clientId: string, checks: CheckedItem[]) => void;
  languages: readonly Language[];
  limits: CheckLimits;
  timeoutMs: number;
  maxBodyBytes: number;
  trustedProxyHops: number;
}

/** Akismet answers in plain text with HTTP 200; what went wrong travels in `X-akismet-debug-help`. */
function answer(res: Response, body: string, headers: Record<string, string> = {}): void {
  res
    .status(200)
    .set({ 'Content-Type': 'text/plain; charset=utf-8', ...headers })
    .send(body);
}

function formOf(req: Request): AkismetForm {
  const form: AkismetForm = {};
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}

function keyOf(req: Request, form: AkismetForm): string | undefined {
  const given = form.key || form.api_key;
  if (given) return given;
  return KEY_LABEL.exec(req.headers.host ?? '')?.[1];
}

/**
 * The calling client, as a bearer token would give it, or undefined after answering Akismet's `invalid`
 * (a missing field or a wrong key, each said in `X-akismet-debug-help`). Then the client's rate limit.
 */
async function callerFor(deps: AkismetDeps, req: Request, res: Response, form: AkismetForm) {
  const missing = REQUIRED_FIELDS.find((field) => !form[field]);
  if (missing) {
    answer(res, `Missing required field: ${missing}.`, {
      'X-akismet-debug-help': `Empty "${missing}" value`,
    });
    return undefined;
  }
  const key = keyOf(req, form);
  const context = requestContext(res);
  const clientId =
    key === undefined
      ? undefined
      : await deps.verifyKey(key, {
          requestId: context.requestId,
          clientAddress: clientAddress(req, deps.trustedProxyHops),
        });
  if (clientId === undefined) {
    answer(res, 'invalid', {
      'X-akismet-debug-help':
        key === undefined
          ? 'No API key: send it as "key" or "api_key", or as the first label of the host name'
          : 'The API key is not valid (an administrator issues one per client in the admin API)',
    });
    return undefined;
  }
  const caller: Caller = { clientId };
  await deps.limitClient(caller, res);
  const language = languageOf(form.blog_lang, deps.languages) ?? context.language;
  const meta: CallMeta = { requestId: context.requestId, language, clientId };
  return meta;
}

/** A client's route (comment-check, submit-*): `handle` runs once the key and the required fields pass. */
function clientRoute(
  deps: AkismetDeps,
  handle: (meta: CallMeta, check: AkismetCheck, res: Response) => Promise<void>,
) {
  return async (req: Request, res: Response) => {
    const form = formOf(req);
    const meta = await callerFor(deps, req, res, form);
    if (meta) await handle(meta, checkOf(form), res);
  };
}

/**
 * comment-check: the text check, or the hybrid check with an author address, as the JSON API runs them; the
 * check is kept for the client's review list and raises its webhook events like any other.
 */
function commentCheck(deps: AkismetDeps) {
  const schemas = createRequestSchemas(deps.limits);
  return clientRoute(deps, async (meta, check, res) => {
    const settings = await deps.settings?.get(meta.clientId);
    let checked: CheckedItem;
    let reasons: string[];
    if (check.kind === 'hybrid') {
      const request = parseBody(schemas.hybrid, check.request, meta.language);
      const stepByStep = settings?.hybrid?.step_by_step ?? false;
      const verdict = await runHybridCheck(
        request,
        stepByStep ? 'step_by_step' : 'parallel',
        stepByStep ? deps.transports.stepByStep : deps.transports.parallel,
        meta,
      );
      const result = await hybridResultOf(deps.hybrids, meta.clientId, verdict, requestContext(res));
      checked = { checked: { kind: 'hybrid', result }, submitted: request };
      reasons = [...verdict.email.reasons, ...(verdict.text?.reasons ?? [])].map((reason) => reason.code);
    } else {
      const request = parseBody(schemas.text, check.request, meta.language);
      const result = await deps.transports.parallel.checkText(request, meta);
      checked = { checked: { kind: 'text', result }, submitted: request };
      reasons = result.reasons.map((reason) => reason.code);
    }
    const { verdict, score } = checked.checked.result;
    const spam = isSpam(verdict, settings?.akismet?.suspicious_as ?? 'spam');
    answer(res, spam ? 'true' : 'false', {
      ...(spam && score >= DISCARD_SCORE ? { 'X-akismet-pro-tip': 'discard' } : {}),
      'X-Spam-Check-Verdict': verdict,
    });
    deps.usage?.recordCheck({
      clientId: meta.clientId,
      kind: check.kind,
      verdict,
      reasons,
      durationMs: elapsedMs(requestContext(res)),
    });
    deps.keep(meta.clientId, [checked]);
  });
}

/** submit-spam and submit-ham: reports by content (the text, and the author's address when given). */
function report(deps: AkismetDeps, label: 'spam' | 'ham') {
  const schemas = createFeedbackSchemas(deps.limits);
  return clientRoute(deps, async (meta, check, res) => {
    const reports = [
      { title: '', body: check.request.body, label },
      ...(check.kind === 'hybrid' ? [{ email: check.request.email, label }] : []),
    ].map((body) => parseBody(schemas.formOf(body), body, meta.language));
    const send = async (part: FeedbackPart, body: object) => {
      await sendFeedback(deps.detectors[part], body, meta, deps.timeoutMs);
      return true;
    };
    const applied = (
      await Promise.all(
        reports.map((request) =>
          routeFeedback(
            request,
            async () => undefined,
            send,
            (part) => deps.detectors[part].isDown(),
          ),
        ),
      )
    ).flat();
    answer(res, THANKS);
    deps.usage?.recordFeedback(meta.clientId, {
      at: new Date().toISOString(),
      id: randomUUID(),
      check_id: null,
      label,
      applied_to: applied,
    });
  });
}

/**
 * Akismet's REST API (docs/akismet.md) under /1.1: form-encoded, a client's Akismet key instead of a token,
 * then the same checks, reports, settings, rate limit and usage as the client's OAuth calls.
 */
export function akismetRouter(deps: AkismetDeps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: deps.maxBodyBytes }));
  const routes = {
    '/verify-key': async (req: Request, res: Response) => {
      if (await callerFor(deps, req, res, formOf(req))) answer(res, 'valid');
    },
    '/comment-check': commentCheck(deps),
    '/submit-spam': report(deps, 'spam'),
    '/submit-ham': report(deps, 'ham'),
  };
  for (const [path, handler] of Object.entries(routes)) {
    router.post(path, handler);
    router.all(path, (_req, res, next) => {
      res.setHeader('Allow', 'POST');
      next(new AppError('METHOD_NOT_ALLOWED'));
    });
  }
  router.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  return router;
}
