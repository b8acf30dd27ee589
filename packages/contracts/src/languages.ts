/** Languages that have messages for every reason and error code. `LANGUAGES` may enable a subset. */
export const SUPPORTED_LANGUAGES = ['de', 'fr', 'en'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export type Messages = Record<Language, string>;

/** A message with its `{name}` placeholders filled from params; unknown ones are left visible. */
export function fillPlaceholders(message: string, params: Record<string, unknown>): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function isSupportedLanguage(value: string): value is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
