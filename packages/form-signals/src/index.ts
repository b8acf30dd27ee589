import {
  reasonMessage,
  type FormContext,
  type FormReasonCode,
  type Language,
  type Reason,
  type ReasonParams,
  type Verdict,
} from '@spam-check/contracts';
import { isbot } from 'isbot';
import { z } from 'zod';

/** The detectors' configuration of the form context, spread into each one's config schema. */
export const formConfigShape = {
  /** A submission faster than this many seconds after the form was rendered is at least suspicious. */
  FORM_MIN_SECONDS: z.coerce.number().min(0).max(3600).default(3),
};

/** How much each form reason weighs in a result's `reasons` (the floor below is what decides). */
const WEIGHTS: Record<FormReasonCode, number> = {
  FORM_HONEYPOT_FILLED: 1,
  FORM_SUBMITTED_TOO_FAST: 0.5,
  FORM_BOT_USER_AGENT: 0.5,
  FORM_AUTHOR_NAME_LINK: 0.5,
};

/** A web address where a person's name belongs: people's names never hold a scheme or a `www.` host. */
const LINK_IN_NAME = /https?:\/\/|\bwww\./i;

export interface FormJudgement {
  findings: { code: FormReasonCode; params?: ReasonParams }[];
  /** The least verdict the form context allows; null when it says nothing. */
  floor: 'spam' | 'suspicious' | null;
}

/**
 * The form context of a check (docs/design.md, Form context), judged in this one place for both detectors.
 * Rules:
 * - a non-empty `honeypot`: spam with score 1 (FORM_HONEYPOT_FILLED);
 * - `seconds_to_submit` below `minSeconds` (FORM_MIN_SECONDS): at least suspicious (FORM_SUBMITTED_TOO_FAST);
 * - a `user_agent` of an automation tool or crawler, as the maintained `isbot` pattern list knows them: at
 *   least suspicious (FORM_BOT_USER_AGENT);
 * - an `author_name` that holds a web address (`http://`, `https://`, `www.`): at least suspicious
 *   (FORM_AUTHOR_NAME_LINK); comment forms show the name as the anchor of the author's link, so link droppers
 *   put an address there.
 * Only the findings leave this function: nothing of the context is kept or logged.
 */
export function judgeFormContext(context: FormContext | undefined, minSeconds: number): FormJudgement {
  const judgement: FormJudgement = { findings: [], floor: null };
  if (!context) return judgement;
  if (context.honeypot !== undefined && context.honeypot !== '')
    judgement.findings.push({ code: 'FORM_HONEYPOT_FILLED' });
  if (context.seconds_to_submit !== undefined && context.seconds_to_submit < minSeconds)
    judgement.findings.push({
      code: 'FORM_SUBMITTED_TOO_FAST',
      params: { seconds: Math.round(context.seconds_to_submit * 10) / 10 },
    });
  if (context.user_agent !== undefined && isbot(context.user_agent))
    judgement.findings.push({ code: 'FORM_BOT_USER_AGENT' });
  if (context.author_name !== undefined && LINK_IN_NAME.test(context.author_name))
    judgement.findings.push({ code: 'FORM_AUTHOR_NAME_LINK' });
  if (judgement.findings.some((finding) => finding.code === 'FORM_HONEYPOT_FILLED')) judgement.floor = 'spam';
  else if (judgement.findings.length > 0) judgement.floor = 'suspicious';
  return judgement;
}

interface Judged {
  spam: boolean;
  verdict: Verdict;
  score: number;
  reasons: Reason[];
  /** The text result's deciding stage: a filled honeypot is decided by a rule. */
  engine?: string;
}

/**
 * A detector's result with the form judgement applied: its reasons added, and the verdict (and the score, to
 * the verdict's threshold) raised to the floor. A result already above the floor keeps its verdict.
 */
export function applyFormJudgement<R extends Judged>(
  result: R,
  judgement: FormJudgement,
  options: { language: Language; suspiciousThreshold: number },
): R {
  if (judgement.findings.length === 0) return result;
  const reasons = judgement.findings.map(({ code, params }) => ({
    code,
    message: reasonMessage(code, options.language, params),
    weight: WEIGHTS[code],
  }));
  const applied = { ...result, reasons: [...result.reasons, ...reasons] };
  if (judgement.floor === 'spam')
    return Object.assign(applied, {
      spam: true,
      verdict: 'spam' as const,
      score: 1,
      ...(result.engine === undefined ? {} : { engine: 'rules' }),
    });
  if (result.verdict === 'ham')
    return Object.assign(applied, {
      verdict: 'suspicious' as const,
      score: Math.max(result.score, options.suspiciousThreshold),
    });
  return applied;
}
