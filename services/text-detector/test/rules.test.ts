import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normaliseText } from '../src/domain/normalise';
import {
  createDenyList,
  fixtureVerdict,
  REASON_WEIGHTS,
  runRules,
  type RuleInput,
} from '../src/domain/rules';
import { contactRule } from '../src/domain/rules/contact';
import { linksRule } from '../src/domain/rules/links';
import { obfuscationRule } from '../src/domain/rules/obfuscation';
import { repetitionRule } from '../src/domain/rules/repetition';
import { shoutingRule } from '../src/domain/rules/shouting';
import type { Rule } from '../src/domain/rules/types';

/**
 * Each rule at its boundary: just below (no finding), at (the first input that fires) and above its threshold
 * (where the weight grows, its next step or its cap). Rules without a number get their nearest non-matching
 * and matching inputs.
 */

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

function run(rule: Rule, text: string, counts: Partial<RuleInput> = {}) {
  return rule({ text, lower: text.toLowerCase(), invisibleCharacters: 0, lookAlikeCharacters: 0, ...counts });
}

/** The weight of the rule's finding with this code, or undefined when it did not fire. */
function weightOf(rule: Rule, code: string, text: string, counts: Partial<RuleInput> = {}) {
  return run(rule, text, counts).findings.find((finding) => finding.code === code)?.weight;
}

const links = (count: number, host = 'example.org') =>
  Array.from({ length: count }, (_, i) => `https://${host}/page-${i}`).join(' and ');

describe('TEXT_LINKS (3 links or more; 0.1 per link, at most 0.6)', () => {
  it.each([
    ['2 links (below)', undefined, 2],
    ['3 links (at)', 0.3, 3],
    ['4 links (above)', 0.4, 4],
    ['6 links (at the cap)', 0.6, 6],
    ['7 links (above the cap)', 0.6, 7],
  ])('when the text has %s, the weight is %s', (_name, weight, count) => {
    const found = weightOf(linksRule, 'TEXT_LINKS', `See ${links(count)} for details of the offer.`);
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });
});

describe('TEXT_LINK_DENSITY (links over a third, 0.33, of the characters)', () => {
  // One 33-character link, then ordinary text: the share of link characters is set by the text's length.
  const link = 'https://example.org/abcdefghijklm';
  const text = (length: number) => `${link} ${'a'.repeat(length - link.length - 1)}`;

  it.each([
    ['34 % (above)', 0.4, 97],
    ['33 % (at: not over a third)', undefined, 100],
    ['32 % (below)', undefined, 104],
  ])('when the link makes up %s of the text, the weight is %s', (_name, weight, length) => {
    expect(link).toHaveLength(33);
    expect(weightOf(linksRule, 'TEXT_LINK_DENSITY', text(length))).toBe(weight);
  });

  it('when the text has no link at all, there is no density finding however short it is', () => {
    expect(weightOf(linksRule, 'TEXT_LINK_DENSITY', 'example.org')).toBeUndefined();
  });
});

describe('TEXT_URL_SHORTENER (any shortener link; 0.4 + 0.1 each, at most 0.6)', () => {
  it.each([
    ['a host that only ends like a shortener (below)', undefined, 'https://notbit.ly/abc'],
    ['one shortener link (at)', 0.5, 'https://bit.ly/abc'],
    ['two (above: the cap)', 0.6, 'https://bit.ly/abc https://www.tinyurl.com/xyz'],
    ['three (above the cap)', 0.6, 'https://bit.ly/a https://t.co/b https://is.gd/c'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    const found = weightOf(linksRule, 'TEXT_URL_SHORTENER', `look ${text} now`);
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });
});

describe('TEXT_OBFUSCATION (one obfuscated item; 0.35 + 0.15 each, at most 0.7)', () => {
  it.each([
    ['4 spaced letters (below)', undefined, 'buy v i a g now', 0, 0],
    ['5 spaced letters (at)', 0.5, 'buy v i a g r now', 0, 0],
    ['a digit in a spam word (at)', 0.5, 'buy v1agra now', 0, 0],
    ['the plain spam word (below)', undefined, 'buy viagra now', 0, 0],
    ['2 invisible characters (below)', undefined, 'free money', 2, 0],
    ['3 invisible characters (at)', 0.5, 'free money', 3, 0],
    ['4 invisible characters (above: still one item)', 0.5, 'free money', 4, 0],
    ['1 look-alike letter (at)', 0.5, 'free money', 0, 1],
    ['two items (above)', 0.65, 'buy v1agra and fr33 stuff', 0, 0],
    ['three items (above: the cap)', 0.7, 'buy v1agra and fr33 stuff', 3, 0],
    ['four items (above the cap)', 0.7, 'buy v1agra and fr33 stuff', 3, 1],
  ])('when the text has %s, the weight is %s', (_name, weight, text, invisible, lookAlike) => {
    const found = weightOf(obfuscationRule, 'TEXT_OBFUSCATION', text, {
      invisibleCharacters: invisible,
      lookAlikeCharacters: lookAlike,
    });
    if (weight === undefined) expect(found).toBeUndefined();
    else expect(found).toBeCloseTo(weight, 12);
  });

  it('when invisible characters hide in a real text, normalisation counts them and the rule fires from 3', () => {
    const zw = '\u200b';
    expect(runRules(normaliseText({ title: '', body: `fr${zw}ee mo${zw}ney` })).findings).toEqual([]);
    const evidence = runRules(normaliseText({ title: '', body: `fr${zw}ee mo${zw}ney fo${zw}r you` }));
    expect(evidence.signals.invisible_characters).toBe(3);
    expect(evidence.findings).toEqual([{ code: 'TEXT_OBFUSCATION', weight: 0.5 }]);
  });
});

describe('TEXT_CONTACT_ELSEWHERE (an invitation, or a messenger with a number or handle; 0.5, both 0.7)', () => {
  it.each([
    ['a messenger named alone (below)', undefined, 'I use WhatsApp a lot'],
    ['a messenger with a 7-digit number (below: too short for a number)', undefined, 'WhatsApp +4915112'],
    ['a messenger with an 8-digit number (at)', 0.5, 'WhatsApp +49151123'],
    ['a messenger with a handle (at)', 0.5, 'Telegram @geldmacher_24'],
    ['"contact me" with no channel (below)', undefined, 'please contact me'],
    ['"contact me on" (at)', 0.5, 'please contact me on this'],
    ['"schreib mir auf" (at)', 0.5, 'schreib mir auf Signal'],
    ['"contactez-moi" (at)', 0.5, 'contactez-moi vite'],
    ['an invitation and a messenger with a number (above: both)', 0.7, 'contact me on WhatsApp +49151123'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    expect(weightOf(contactRule, 'TEXT_CONTACT_ELSEWHERE', text)).toBe(weight);
  });
});

describe('TEXT_CRYPTO_WALLET (a wallet address with letters and digits; 0.6)', () => {
  // Legacy Bitcoin: 1 or 3, then 25 to 34 base58 characters.
  const legacy = (characters: number) => `1${'A1'.repeat(20).slice(0, characters)}`;

  it.each([
    ['24 characters after the 1 (below)', undefined, legacy(24)],
    ['25 (at)', 0.6, legacy(25)],
    ['34 (the longest)', 0.6, legacy(34)],
    ['35 (above: too long for an address)', undefined, legacy(35)],
    ['a Tron-shaped word without a digit (below)', undefined, `T${'A'.repeat(33)}`],
    ['a Tron address (at)', 0.6, `T${'A1'.repeat(17).slice(0, 33)}`],
    ['an Ethereum address', 0.6, `0x${'a1'.repeat(20)}`],
  ])('when the text has %s, the weight is %s', (_name, weight, wallet) => {
    expect(weightOf(contactRule, 'TEXT_CRYPTO_WALLET', `send to ${wallet} today`)).toBe(weight);
  });
});

describe('TEXT_SHOUTING (over 70 % capitals among 20+ letters, 2+ runs of !!!, or many !; 0.3)', () => {
  const mixed = (upper: number, lower: number) => `${'A'.repeat(upper)} ${'b'.repeat(lower)}`;

  it.each([
    ['14 of 20 letters in capitals, 70 % (below: not over)', undefined, mixed(14, 6)],
    ['15 of 20, 75 % (at)', 0.3, mixed(15, 5)],
    ['20 of 20 (above)', 0.3, mixed(20, 0)],
    ['19 letters all in capitals (below: too few letters)', undefined, mixed(19, 0)],
    ['one run of !!! (below)', undefined, 'great offer!!! now'],
    ['two runs of !!! (at)', 0.3, 'great offer!!! now!!!'],
    [
      '5 single ! among 100 letters, 5 % (below: not over)',
      undefined,
      `${'word! '.repeat(5)}${'a'.repeat(80)}`,
    ],
    ['5 single ! among 99 letters (at: over 5 %)', 0.3, `${'word! '.repeat(5)}${'a'.repeat(79)}`],
    ['4 single ! among 10 letters (below: fewer than 5)', undefined, 'ab! ab! ab! ab! ab'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    expect(weightOf(shoutingRule, 'TEXT_SHOUTING', text)).toBe(weight);
  });
});

describe('TEXT_REPETITION (a character 10 times, a word over 30 % of 20+, a line 3 times; 0.3)', () => {
  const words = (repeated: number, total: number) =>
    [
      ...Array<string>(repeated).fill('buy'),
      ...Array.from({ length: total - repeated }, (_, i) => `w${i}x`),
    ].join(' ');
  const line = 'call us today please';

  it.each([
    ['a letter 9 times in a row (below)', undefined, `so${'o'.repeat(8)} good`],
    ['a letter 10 times (at)', 0.3, `so${'o'.repeat(9)} good`],
    ['a letter 11 times (above)', 0.3, `so${'o'.repeat(10)} good`],
    [
      'a ruler of 20 dashes (below: punctuation rulers do not count)',
      undefined,
      `title\n${'-'.repeat(20)}\ntext`,
    ],
    ['one word 6 times in 20, 30 % (below: not over)', undefined, words(6, 20)],
    ['one word 7 times in 20, 35 % (at)', 0.3, words(7, 20)],
    ['one word 19 times in 19 (below: fewer than 20 words)', undefined, words(19, 19)],
    ['a line twice (below)', undefined, `${line}\n${line}`],
    ['a line 3 times (at)', 0.3, `${line}\n${line}\n${line}`],
    ['a line 4 times (above)', 0.3, `${line}\n${line}\n${line}\n${line}`],
    ['a 9-character line 3 times (below: too short to count)', undefined, 'call now!\ncall now!\ncall now!'],
  ])('when the text has %s, the weight is %s', (_name, weight, text) => {
    expect(weightOf(repetitionRule, 'TEXT_REPETITION', text)).toBe(weight);
  });
});

describe('operator and client deny terms (a listed term anywhere in the lower-case text)', () => {
  it.each([
    ['the term with a letter missing (below)', false, 'casino royal'],
    ['the term (at)', true, 'casino royale'],
    ['the term inside longer text (above)', true, 'win at casino royales tonight'],
    [
      'the term in other case and width (compiled lower-case, NFKC)',
      true,
      'ｃａｓｉｎｏ royale'.normalize('NFKC'),
    ],
  ])('when the text has %s, it is deny-listed: %s', (_name, listed, text) => {
    expect(createDenyList(['', 'Casino Royale', 'casino royale'])(text)).toBe(listed);
  });

  it('when the only term is empty, nothing is deny-listed', () => {
    expect(createDenyList([''])('anything at all')).toBe(false);
  });

  it('when one of many long terms ends a long text, it is found', () => {
    const terms = Array.from({ length: 1000 }, (_, i) => `${'a'.repeat(90)}b${i}`);
    expect(createDenyList(terms)('a'.repeat(100_000))).toBe(false);
    expect(createDenyList(terms)(`${'a'.repeat(100_000)}b999`)).toBe(true);
  });
});

describe('test fixture markers', () => {
  it.each([
    ['spam-check-test-spa', undefined],
    ['spam-check-test-spam', 'spam'],
    ['x spam-check-test-spammy', 'spam'],
    ['spam-check-test-ha', undefined],
    ['spam-check-test-ham', 'ham'],
    ['spam-check-test-ham and spam-check-test-spam', 'spam'],
  ])('when the text is "%s", the fixture verdict is %s', (text, verdict) => {
    expect(fixtureVerdict(text)).toBe(verdict);
  });
});

describe('the weight table', () => {
  it.each(Object.entries(REASON_WEIGHTS))(
    '%s is documented in the README with its weight',
    (code, weight) => {
      const row = readme.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${code}\``));
      expect(row).toBeDefined();
      if (typeof weight === 'number') expect(row).toMatch(new RegExp(`\\| ${weight} \\|$`));
      else expect(row).toContain(`{base: ${weight.base}, step: ${weight.step}, max: ${weight.max}}`);
    },
  );
});
