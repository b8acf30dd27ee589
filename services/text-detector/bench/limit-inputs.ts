/**
 * Inputs at the limits (title and sub_title 1,000, body 100,000 characters), built to hit the worst case of
 * each regular expression (long runs that almost match). `test/unit/limits.test.ts` checks that each gets a valid
 * answer; the bench prints the CPU time of each.
 */
export interface LimitInput {
  title: string;
  body: string;
  sub_title?: string;
}

/** `unit` repeated to exactly `length` characters. */
export const repeatTo = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const body = (unit: string) => repeatTo(unit, 100_000);
const title = (unit: string) => repeatTo(unit, 1000);

export const LIMIT_INPUTS: [string, LimitInput][] = [
  ['one character repeated', { title: title('a'), body: body('a'), sub_title: title('a') }],
  ['spaces only', { title: title(' '), body: body(' ') }],
  ['exclamation marks', { title: title('!'), body: body('!') }],
  ['digits (phone-like)', { title: title('0'), body: body('0') }],
  ['digits and separators', { title: title('+1 '), body: body('+1 2-') }],
  ['spaced letters that never end', { title: title('a '), body: body('a ') }],
  ['dotted letters', { title: title('a.'), body: body('a.') }],
  ['base58 run (wallet-like)', { title: title('1'), body: body('1A') }],
  ['hex run (address-like)', { title: title('0x'), body: body('0xab') }],
  ['deeply nested HTML', { title: title('<b>'), body: body('<div><span><b><i>') }],
  ['unclosed tags and comments', { title: title('<a '), body: body('<!--<script <a href=') }],
  [
    'a tag whose attributes never end',
    {
      title: title('<img src='),
      body: repeatTo(`<img src="data:image/png;base64,${'QUJD'.repeat(50)}`, 100_000),
    },
  ],
  [
    'tags with long attributes',
    { title: title('<a b="c">'), body: body(`<p title="${'x'.repeat(3000)}">word `) },
  ],
  ['variation selectors', { title: title('a\u{e0139}'), body: body('a\u{e0139}') }],
  ['entities', { title: title('&amp;'), body: body('&#1234567;&') }],
  ['many URLs', { title: title('http://a.b/ '), body: body('https://bit.ly/x ') }],
  ['one giant URL', { title: title('www.'), body: `http://${body('a/')}` }],
  ['at-signs (email-like)', { title: title('@'), body: body('a@') }],
  ['zero-width characters', { title: title('a\u200b'), body: body('a\u200b') }],
  ['look-alike letters', { title: title('a\u0430'), body: body('a\u0430 ') }],
  [
    'mixed random text',
    { title: title('Buy NOW!!! '), body: body('v i a g r a WhatsApp +49 151 bc1q fr33 ') },
  ],
  ['newlines', { title: title('\n'), body: body('line one\n') }],
];
