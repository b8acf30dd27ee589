/**
 * The language of a text as an ISO 639-1 code, or null when it cannot be told (too few letters, no
 * language's profile fits). Implemented in data-access with a maintained detector (eld).
 */
export type DetectLanguage = (text: string) => string | null;
