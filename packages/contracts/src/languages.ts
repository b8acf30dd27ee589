/** Languages that have messages for every reason and error code. `LANGUAGES` may enable a subset. */
export const SUPPORTED_LANGUAGES = ['de', 'fr', 'en'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export type Messages = Record<Language, string>;

export function isSupportedLanguage(value: string): value is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
