import { z } from 'zod';
import { fillPlaceholders, type Language, type Messages } from './languages';

/**
 * The messages of `errors[].message` in a VALIDATION_FAILED problem, in the request's language: zod's own
 * locales (de, fr, en) for what zod checks, and ours for the rules the contracts add (`custom` issues that
 * name a `rule` in their params, never a fixed English message, which would win over the language).
 */
export const VALIDATION_RULE_MESSAGES = {
  thresholds_ordered: {
    de: 'darf nicht größer als spam_threshold sein',
    fr: 'ne doit pas dépasser spam_threshold',
    en: 'must not be greater than spam_threshold',
  },
  not_a_path_segment: {
    de: 'darf nicht . oder .. sein',
    fr: 'ne doit pas être . ni ..',
    en: 'must not be . or ..',
  },
  stats_range: {
    de: 'muss vor to liegen, höchstens {days} Tage davor',
    fr: 'doit précéder to, au plus {days} jours avant',
    en: 'must be before to, at most {days} days before it',
  },
  unique_items: {
    de: 'darf keinen Eintrag doppelt enthalten',
    fr: 'ne doit contenir aucun élément en double',
    en: 'must not contain an entry twice',
  },
  unique_ids: {
    de: 'jede id darf nur einmal vorkommen',
    fr: 'chaque id ne doit figurer qu’une fois',
    en: 'each id may appear only once',
  },
  https_only: {
    de: 'muss in Produktion eine https-Adresse sein',
    fr: 'doit être une adresse https en production',
    en: 'must be an https address in production',
  },
  address_not_allowed: {
    de: 'darf keine Loopback-, private oder Link-local-Adresse sein',
    fr: 'ne doit pas être une adresse de bouclage, privée ou link-local',
    en: 'must not be a loopback, private or link-local address',
  },
} satisfies Record<string, Messages>;

export type ValidationRule = keyof typeof VALIDATION_RULE_MESSAGES;

/** A rule's message in a language, `{name}` placeholders filled from params (unknown ones left visible). */
export function validationRuleMessage(
  rule: ValidationRule,
  language: Language,
  params: Record<string, unknown> = {},
): string {
  return fillPlaceholders(VALIDATION_RULE_MESSAGES[rule][language], params);
}

const LOCALES: Record<Language, () => { localeError: z.core.$ZodErrorMap }> = {
  de: z.locales.de,
  fr: z.locales.fr,
  en: z.locales.en,
};

const errorMaps = new Map<Language, z.core.$ZodErrorMap>();

/** The error map that gives a parse's issues their messages in `language`. */
function validationErrors(language: Language): z.core.$ZodErrorMap {
  let map = errorMaps.get(language);
  if (!map) {
    const { localeError } = LOCALES[language]();
    map = (issue) => {
      const rule = issue.code === 'custom' ? (issue.params?.rule as string | undefined) : undefined;
      if (rule !== undefined && rule in VALIDATION_RULE_MESSAGES)
        return validationRuleMessage(
          rule as ValidationRule,
          language,
          issue.params as Record<string, unknown>,
        );
      return localeError(issue);
    };
    errorMaps.set(language, map);
  }
  return map;
}

/**
 * `schema.safeParse(value)`, with the issues of a value that fails in `language`. A value that passes is
 * parsed once without options, the cheaper path for every check and every item of a batch (the benches measure
 * it); only a value that fails is parsed again, with the language's error map.
 */
export function safeParseIn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  language: Language,
): z.ZodSafeParseResult<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed : schema.safeParse(value, { error: validationErrors(language) });
}
