import { contactRule } from '../../../src/domain/rules/contact';
import { weightOf } from './support';

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
