import {
  reasonMessage,
  type Language,
  type Reason,
  type TextResult,
  type TextRules,
} from '@spam-check/contracts';
import { REASON_WEIGHTS } from './weights';

/**
 * A client's own rules for its texts (setting `text_rules`), applied over the cascade's verdict, whatever
 * stage decided it. Rules:
 * - `allowed_languages`: a text detected in another language is at least suspicious
 *   (TEXT_LANGUAGE_NOT_ALLOWED); a text whose language cannot be told passes, since short texts often cannot;
 * - `max_links`: more links than that is at least suspicious, twice as many or more is spam
 *   (TEXT_TOO_MANY_LINKS); with 0, any link is spam.
 * A rule that raises the verdict decides it (`engine: "rules"`); a verdict already above a rule's floor stays.
 */

type Floor = 'suspicious' | 'spam';

interface SiteFinding {
  reason: Reason;
  floor: Floor;
}

type Judged = Pick<TextResult, 'spam' | 'verdict' | 'score' | 'reasons' | 'language' | 'engine' | 'signals'>;

export interface SiteRuleOptions {
  language: Language;
  spamThreshold: number;
  suspiciousThreshold: number;
}

function findings(result: Judged, rules: TextRules, language: Language): SiteFinding[] {
  const found: SiteFinding[] = [];
  const allowed = rules.allowed_languages;
  if (allowed && result.language !== null && !allowed.includes(result.language)) {
    const params = { language: result.language, allowed: allowed.join(', ') };
    found.push({
      floor: 'suspicious',
      reason: {
        code: 'TEXT_LANGUAGE_NOT_ALLOWED',
        message: reasonMessage('TEXT_LANGUAGE_NOT_ALLOWED', language, params),
        weight: REASON_WEIGHTS.TEXT_LANGUAGE_NOT_ALLOWED,
      },
    });
  }
  const max = rules.max_links;
  const links = result.signals.links;
  if (max !== null && max !== undefined && links > max) {
    const floor: Floor = links >= 2 * max ? 'spam' : 'suspicious';
    found.push({
      floor,
      reason: {
        code: 'TEXT_TOO_MANY_LINKS',
        message: reasonMessage('TEXT_TOO_MANY_LINKS', language, { count: links, max }),
        weight: REASON_WEIGHTS.TEXT_TOO_MANY_LINKS,
      },
    });
  }
  return found;
}

const RANK = { ham: 0, suspicious: 1, spam: 2 } as const;

/** The result with the client's site rules applied: their reasons first, the verdict raised to their floor. */
export function applySiteRules<R extends Judged>(
  result: R,
  rules: TextRules | undefined,
  options: SiteRuleOptions,
): R {
  if (!rules) return result;
  const found = findings(result, rules, options.language);
  if (found.length === 0) return result;
  const floor: Floor = found.some((finding) => finding.floor === 'spam') ? 'spam' : 'suspicious';
  const applied = { ...result, reasons: [...found.map((finding) => finding.reason), ...result.reasons] };
  if (RANK[result.verdict] >= RANK[floor]) return applied;
  const threshold = floor === 'spam' ? options.spamThreshold : options.suspiciousThreshold;
  return Object.assign(applied, {
    spam: floor === 'spam',
    verdict: floor,
    score: Math.max(result.score, threshold),
    engine: 'rules' as const,
  });
}
