import type {
  HybridCheckRequest,
  HybridMode,
  HybridResult,
  Language,
  MailCheckRequest,
  MailResult,
  TextCheckRequest,
  TextResult,
  Verdict,
} from '@spam-check/contracts';

/**
 * What travels with a call to a detector: request id, language and client id (docs/design.md, Architecture).
 */
export interface CallMeta {
  requestId: string;
  language: Language;
  clientId: string;
}

/**
 * How the orchestrator reaches the detectors: over HTTP (parallel mode, and step-by-step without AMQP) or
 * over RabbitMQ RPC (step-by-step). Failures are thrown as AppErrors with the detector error codes.
 */
export interface DetectorTransport {
  checkMail(request: MailCheckRequest, meta: CallMeta): Promise<MailResult>;
  checkText(request: TextCheckRequest, meta: CallMeta): Promise<TextResult>;
}

export type HybridVerdict = Omit<HybridResult, 'id' | 'request_id' | 'duration_ms'>;

const SEVERITY: Record<Verdict, number> = { ham: 0, suspicious: 1, spam: 2 };

/**
 * The combined verdict (docs/design.md, Checks and verdicts): spam when either part is spam, the larger
 * score, the worse verdict. A skipped text part counts for nothing.
 */
function combineVerdicts(mode: HybridMode, email: MailResult, text: TextResult | null): HybridVerdict {
  const parts = text ? [email, text] : [email];
  const verdict = parts.reduce<Verdict>(
    (worst, part) => (SEVERITY[part.verdict] > SEVERITY[worst] ? part.verdict : worst),
    'ham',
  );
  return {
    spam: parts.some((part) => part.spam),
    verdict,
    score: Math.max(...parts.map((part) => part.score)),
    mode,
    email,
    text,
    skipped: text ? [] : ['text'],
  };
}

function textPart(request: HybridCheckRequest): TextCheckRequest {
  return {
    title: request.title,
    body: request.body,
    ...(request.sub_title === undefined ? {} : { sub_title: request.sub_title }),
    ...(request.context === undefined ? {} : { context: request.context }),
  };
}

/**
 * Parallel: both detectors at once. Step-by-step: the e-mail first; the text detector is called only when
 * the e-mail is not spam, so a spam address never reaches it.
 */
export async function runHybridCheck(
  request: HybridCheckRequest,
  mode: HybridMode,
  transport: DetectorTransport,
  meta: CallMeta,
): Promise<HybridVerdict> {
  // The form context goes to both parts: each detector judges it (docs/design.md, Form context).
  const mail: MailCheckRequest = {
    email: request.email,
    ...(request.context === undefined ? {} : { context: request.context }),
  };
  if (mode === 'parallel') {
    const [email, text] = await Promise.all([
      transport.checkMail(mail, meta),
      transport.checkText(textPart(request), meta),
    ]);
    return combineVerdicts(mode, email, text);
  }
  const email = await transport.checkMail(mail, meta);
  if (email.spam) return combineVerdicts(mode, email, null);
  return combineVerdicts(mode, email, await transport.checkText(textPart(request), meta));
}
