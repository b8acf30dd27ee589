import {
  CONSOLE_MESSAGES,
  CONSOLE_MESSAGE_KEYS,
  ERROR_CATALOGUE,
  ERROR_CODES,
  REASON_CATALOGUE,
  REASON_CODES,
  SUPPORTED_LANGUAGES,
  errorMessages,
  oauthErrorDescription,
  reasonMessage,
  renderApiReferenceMarkdown,
} from '@spam-check/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const apiReference = readFileSync(
  join(__dirname, '..', '..', '..', '..', 'docs', 'api-reference.md'),
  'utf8',
);

describe('the reason catalogue', () => {
  it.each(REASON_CODES)(
    '%s is UPPER_SNAKE with a prefix, translated into every language and documented',
    (code) => {
      expect(code).toMatch(/^(EMAIL|TEXT|FORM)_[A-Z0-9_]+$/);
      const entry = REASON_CATALOGUE[code];
      for (const language of SUPPORTED_LANGUAGES) expect(entry[language].trim().length).toBeGreaterThan(10);
      const placeholders = (language: string) =>
        [...(entry as Record<string, string>)[language]!.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(placeholders('de')).toEqual(placeholders('en'));
      expect(placeholders('fr')).toEqual(placeholders('en'));
      expect(apiReference).toContain(`\`${code}\``);
    },
  );

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(reasonMessage('EMAIL_DOMAIN_TYPO', 'de', { suggestion: 'a@gmail.com' })).toContain('a@gmail.com');
    expect(reasonMessage('EMAIL_DOMAIN_TYPO', 'fr')).toContain('{suggestion}');
  });
});

describe('the error catalogue', () => {
  it.each(ERROR_CODES)('%s has a 4xx/5xx status, messages in every language and docs', (code) => {
    const entry = ERROR_CATALOGUE[code];
    expect(entry.status).toBeGreaterThanOrEqual(400);
    for (const language of SUPPORTED_LANGUAGES) {
      expect(entry.title[language].length).toBeGreaterThan(3);
      expect(entry.detail[language].length).toBeGreaterThan(10);
    }
    expect(apiReference).toContain(`\`${code}\``);
  });
});

describe('the console catalogue', () => {
  it.each(CONSOLE_MESSAGE_KEYS)('%s is written in every language', (key) => {
    for (const language of SUPPORTED_LANGUAGES)
      expect(CONSOLE_MESSAGES[key][language].trim().length).toBeGreaterThan(0);
  });
});

describe('docs/api-reference.md', () => {
  it('is the one generated from the current contracts (run `pnpm docs:generate` after changing them)', () => {
    expect(apiReference).toBe(renderApiReferenceMarkdown());
  });
});

describe('OAuth error descriptions', () => {
  it('when any error detail in any language becomes an error_description, it keeps to RFC 6749 §5.2 characters', () => {
    for (const code of ERROR_CODES)
      for (const language of SUPPORTED_LANGUAGES)
        expect(oauthErrorDescription(errorMessages(code, language).detail)).toMatch(
          /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/,
        );
  });

  it('when text has umlauts, accents and typographic quotes, they are transliterated, not dropped', () => {
    expect(oauthErrorDescription('Ungültige Größe « l’accès » – "ok"\\')).toBe(
      "Ungueltige Groesse ' l'acces ' - 'ok'/",
    );
  });
});
