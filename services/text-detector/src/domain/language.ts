/**
 * Language detection by stop-word profiles: the language whose common function words cover most of the
 * first words of the text wins, if it covers enough of them and clearly beats the runner-up; else null.
 * Small and dependency-free; good enough to pick de/fr/en (and to recognise a few neighbours as "other").
 */

const PROFILES: Record<string, string> = {
  en: 'the and to of a in is it you that for on with this be are was have not at as your but or from my me we will can do if all so they he she what just get out about there'.replace(
    /\s+/g,
    ' ',
  ),
  de: 'der die das und ist nicht ich sie es ein eine zu mit den auf für von dem des im sich auch wir ihr mir mich dich du bitte wie aber oder noch nur wenn hier jetzt sind kann habe hat wird'.replace(
    /\s+/g,
    ' ',
  ),
  fr: 'le la les et est une un des du de pas je vous il elle nous pour dans que qui sur avec ce cette mais ou plus tout très bien sont ont mon ma mes votre vos ici aussi être avoir fait'.replace(
    /\s+/g,
    ' ',
  ),
  es: 'el los las y es una por con para que del al lo como pero más muy está son este esta tu su mi yo hay cuando donde porque también'.replace(
    /\s+/g,
    ' ',
  ),
  it: 'il lo gli e è una per con che del della non sono questo questa ma più anche come ci mi ti si molto tutto perché quando dove'.replace(
    /\s+/g,
    ' ',
  ),
  nl: 'de het een en is van niet ik je dat die met voor op zijn maar ook als dit wat er nog wel naar bij jij hij zij'.replace(
    /\s+/g,
    ' ',
  ),
  pt: 'o os as e é uma um por com para que do da não mais muito está são este esta isso mas também quando onde porque você ele ela'.replace(
    /\s+/g,
    ' ',
  ),
};

const STOP_WORDS = new Map<string, string[]>();
for (const [language, words] of Object.entries(PROFILES)) {
  for (const word of words.split(' ')) STOP_WORDS.set(word, [...(STOP_WORDS.get(word) ?? []), language]);
}

const WORD = /\p{L}+(?:'\p{L}+)?/gu;
const MAX_WORDS = 200;
const MIN_HITS = 2;

/** ISO 639-1 code of the text's language, or null when unsure. */
export function detectLanguage(text: string): string | null {
  const scores = new Map<string, number>();
  let words = 0;
  let hits = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match && words < MAX_WORDS; match = WORD.exec(text)) {
    words++;
    const word = match[0].toLowerCase();
    const base = word.includes("'") ? word.slice(word.indexOf("'") + 1) : word;
    const languages = STOP_WORDS.get(word) ?? STOP_WORDS.get(base);
    if (!languages) continue;
    hits++;
    for (const language of languages)
      scores.set(language, (scores.get(language) ?? 0) + 1 / languages.length);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || hits < MIN_HITS || best[1] < Math.max(1.5, words * 0.08)) return null;
  if (second && best[1] < second[1] * 1.5) return null;
  return best[0];
}
