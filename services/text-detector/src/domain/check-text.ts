import { randomUUID } from 'node:crypto';
import { reasonMessage, type Language, type TextResult } from '@spam-check/contracts';

export interface CheckTextInput {
  title: string;
  body: string;
  sub_title?: string | undefined;
  language: Language;
  requestId: string;
}

const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;

/** The text verdict: one domain function behind both the HTTP and the RPC entry point. */
export async function checkText(input: CheckTextInput): Promise<Omit<TextResult, 'duration_ms'>> {
  const text = [input.title, input.sub_title ?? '', input.body].join('\n').normalize('NFKC');
  const links = text.match(LINK)?.length ?? 0;
  const letters = text.replace(/[^\p{L}]/gu, '');
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length;
  const uppercaseRatio = letters.length ? upper / letters.length : 0;
  const reasons: TextResult['reasons'] = [];
  if (links >= 3)
    reasons.push({
      code: 'TEXT_LINKS',
      message: reasonMessage('TEXT_LINKS', input.language, { count: links }),
      weight: 0.6,
    });
  if (letters.length >= 20 && uppercaseRatio > 0.7)
    reasons.push({
      code: 'TEXT_SHOUTING',
      message: reasonMessage('TEXT_SHOUTING', input.language),
      weight: 0.3,
    });
  const score = Math.min(
    1,
    reasons.reduce((sum, reason) => sum + reason.weight, 0),
  );
  const verdict = score >= 0.8 ? 'spam' : score >= 0.5 ? 'suspicious' : 'ham';
  return {
    id: randomUUID(),
    spam: verdict === 'spam',
    verdict,
    score,
    reasons,
    request_id: input.requestId,
    language: null,
    engine: 'rules',
    degraded: false,
    signals: {
      links,
      link_density: text.length ? links / text.length : 0,
      shorteners: 0,
      uppercase_ratio: uppercaseRatio,
      length: text.length,
    },
  };
}
