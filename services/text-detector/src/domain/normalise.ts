/**
 * Normalisation before any rule looks at a text:
 * - HTML to text: comments, script and style contents and tags are dropped, block tags become line breaks,
 *   entities are decoded (a closed list plus numeric ones); a tag cut off inside its attributes at the end of
 *   a field (HTML truncated by the client or by FIELD_LIMIT) is dropped, as an HTML parser drops a tag that
 *   meets the end of its input;
 * - invisible characters (INVISIBLE: zero-width and bidi controls, soft hyphen, the supplement's variation
 *   selectors) are removed and counted (a way to split words invisibly);
 * - Unicode NFKC, then look-alike letters (Cyrillic and Greek that render as Latin) are mapped to Latin
 *   inside words that also contain Latin letters, and counted.
 * Every step is a single left-to-right pass or a linear regular expression, and each field is cut to
 * FIELD_LIMIT characters first, so the cost is bounded whatever the input.
 */

const FIELD_LIMIT = 100_000;

export interface NormalisedText {
  /** Title, subtitle and body joined with line breaks, after all steps. */
  text: string;
  title: string;
  subTitle: string;
  body: string;
  invisibleCharacters: number;
  lookAlikeCharacters: number;
  htmlTags: number;
}

/**
 * Characters that render as nothing between letters: soft hyphen, zero-width and bidi controls, and the
 * variation selectors of the supplement (U+E0100-E01EF), which change nothing after a Latin letter and are
 * used to split words invisibly ("M\u{E0139}icrosoft"). The emoji selectors U+FE0E/FE0F are not among them.
 * Shared with the model's canonical text (./model/canonical.ts). The supplement's selectors are written as
 * UTF-16 surrogate pairs (U+E0100-E01EF is \udb40 followed by \udd00-\uddef).
 */
export const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]|\udb40[\udd00-\uddef]/g;
/**
 * A tag with its attributes, however long (an inline image's `data:` URI can be tens of kilobytes; its
 * base64 must not be read as words). Linear: each match attempt starts at a `<` and scans only up to the
 * next `<` or `>`.
 */
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9]{0,15})(?:\s[^<>]*)?\/?>/g;
const BLOCK_TAGS = new Set([
  'br',
  'p',
  'div',
  'li',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'ul',
  'ol',
  'blockquote',
  'section',
  'article',
  'header',
  'footer',
]);
const ENTITY = /&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  shy: '\u00ad',
  euro: '€',
  pound: '£',
  copy: '©',
  reg: '®',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  laquo: '«',
  raquo: '»',
  zwj: '\u200d',
  zwnj: '\u200c',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  ecirc: 'ê',
};

/** Cyrillic and Greek letters that look like Latin ones. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  ι: 'i',
  κ: 'k',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const WORD = /[\p{L}\p{M}]{2,64}/gu;
const LATIN = /\p{Script=Latin}/u;
const LOOK_ALIKE = /[\u0370-\u03ff\u0400-\u04ff\u0500-\u052f\u0261]/u;

function dropBetween(text: string, open: string, close: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let from = 0;
  for (;;) {
    const start = lower.indexOf(open, from);
    if (start < 0) return out + text.slice(from);
    const end = lower.indexOf(close, start + open.length);
    out += `${text.slice(from, start)} `;
    if (end < 0) return out;
    from = end + close.length;
  }
}

function decodeEntity(whole: string, name: string): string {
  if (name.startsWith('#')) {
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return NAMED_ENTITIES[name] ?? whole;
}

const CUT_OFF_TAG_START = /^<[a-zA-Z][a-zA-Z0-9]{0,15}\s/;
const ATTRIBUTE_VALUE = /=\s*["']/;

/** The text before a tag that the field's end cut off inside its attributes, or the text unchanged. */
function withoutCutOffTag(text: string): string {
  const start = text.lastIndexOf('<');
  if (start < 0 || text.includes('>', start)) return text;
  const tail = text.slice(start);
  return CUT_OFF_TAG_START.test(tail) && ATTRIBUTE_VALUE.test(tail) ? `${text.slice(0, start)} ` : text;
}

function htmlToText(text: string): { text: string; tags: number } {
  if (!text.includes('<') && !text.includes('&')) return { text, tags: 0 };
  let tags = 0;
  let stripped = text;
  if (text.includes('<')) {
    stripped = dropBetween(
      dropBetween(dropBetween(text, '<!--', '-->'), '<script', '</script>'),
      '<style',
      '</style>',
    );
    const whole = withoutCutOffTag(stripped);
    if (whole !== stripped) {
      tags++;
      stripped = whole;
    }
    stripped = stripped.replace(TAG, (_whole, name: string) => {
      tags++;
      return BLOCK_TAGS.has(name.toLowerCase()) ? '\n' : ' ';
    });
  }
  return { text: stripped.replace(ENTITY, decodeEntity), tags };
}

function normaliseField(
  raw: string,
  counters: { invisible: number; lookAlike: number; tags: number },
): string {
  const html = htmlToText(raw.slice(0, FIELD_LIMIT));
  counters.tags += html.tags;
  const visible = html.text.replace(INVISIBLE, () => {
    counters.invisible++;
    return '';
  });
  return visible.normalize('NFKC').replace(WORD, (word) => {
    if (!LOOK_ALIKE.test(word) || !LATIN.test(word)) return word;
    let mapped = '';
    for (const char of word) {
      const latin = LOOK_ALIKES[char];
      if (latin !== undefined) counters.lookAlike++;
      mapped += latin ?? char;
    }
    return mapped;
  });
}

export function normaliseText(input: {
  title: string;
  body: string;
  sub_title?: string | undefined;
}): NormalisedText {
  const counters = { invisible: 0, lookAlike: 0, tags: 0 };
  const title = normaliseField(input.title, counters);
  const subTitle = normaliseField(input.sub_title ?? '', counters);
  const body = normaliseField(input.body, counters);
  return {
    text: [title, subTitle, body].filter((part) => part !== '').join('\n'),
    title,
    subTitle,
    body,
    invisibleCharacters: counters.invisible,
    lookAlikeCharacters: counters.lookAlike,
    htmlTags: counters.tags,
  };
}
