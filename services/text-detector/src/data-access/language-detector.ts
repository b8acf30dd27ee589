import type { DetectLanguage } from '../domain/language';

/** Letters a text needs before a language is named; below, the detectors' guesses are mostly wrong. */
const MIN_LETTERS = 12;
/** Characters read: enough for a stable answer, bounded cost. */
const READ_LIMIT = 500;
const LETTER = /\p{L}/gu;

/**
 * Language detection with eld (Efficient Language Detector, 60 languages, n-gram profiles, the `small`
 * database). Chosen over franc, franc-min, tinyld and languagedetect on this project's corpora: 98.8 %
 * correct on English, German and French texts of 20+ characters, against 88-96 % for the others, at
 * 0.1 ms a text (see the text detector's README). eld is an ES module only, hence the asynchronous load.
 */
export async function loadLanguageDetector(): Promise<DetectLanguage> {
  const { eld } = await import('eld/small');
  return (text) => {
    const sample = text.slice(0, READ_LIMIT);
    if ((sample.match(LETTER)?.length ?? 0) < MIN_LETTERS) return null;
    const { language } = eld.detect(sample);
    return language === '' ? null : language;
  };
}
