import type { DetectLanguage } from '../domain/language';

/** Letters a text needs before a language is named; below, the detectors' guesses are mostly wrong. */
const MIN_LETTERS = 12;
/** Characters read: enough for a stable answer, bounded cost. */
const READ_LIMIT = 300;

function hasLetters(text: string, needed: number): boolean {
  let letters = 0;
  for (let i = 0; i < text.length && letters < needed; i++) {
    const code = text.charCodeAt(i);
    // ASCII letters on a fast path; anything else above ASCII through the Unicode letter test.
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) letters++;
    else if (code > 127 && LETTER.test(text[i] as string)) letters++;
  }
  return letters >= needed;
}
const LETTER = /\p{L}/u;

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
    if (!hasLetters(sample, MIN_LETTERS)) return null;
    const { language } = eld.detect(sample);
    return language === '' ? null : language;
  };
}
