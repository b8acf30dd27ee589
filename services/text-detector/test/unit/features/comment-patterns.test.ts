import { normaliseForModel } from '../../../src/domain/model/canonical';
import { praiseTokens, supportTokens } from '../../../src/domain/model/comment-patterns';
import { offerTokens } from '../../../src/domain/model/offers';

const support = (text: string) => supportTokens(normaliseForModel(text));
const praise = (text: string) => {
  const canonical = normaliseForModel(text);
  return praiseTokens(canonical, offerTokens(canonical));
};

describe('the support scam (a brand, "support" or "helpline", a phone number)', () => {
  it('when all three are there, every combination is a token', () => {
    expect(support('Canon printer offline? Call our toll free helpline +1 (888) 555-0199 now')).toEqual([
      'support',
      'support+phone',
      'support+brand',
      'brand+phone',
      'support+brand+phone',
    ]);
  });

  it('when a German hotline has a brand and a number, it is the same pattern', () => {
    expect(support('Outlook geht nicht? Microsoft Kundenservice unter 0800 987 6543')).toContain(
      'support+brand+phone',
    );
  });

  it('when the number has fewer than ten digits (a date, an order number), it is no phone', () => {
    expect(support('HP customer service, order 2025-81463 of 05.07.2025')).toEqual([
      'support',
      'support+brand',
    ]);
  });

  it('when a comment names a brand but offers no support, there is no token', () => {
    expect(
      support('My HP printer stopped working after the update, reinstalling the driver fixed it.'),
    ).toEqual([]);
  });
});

describe('praise and a pivot', () => {
  it.each([
    ['en', 'Thanks for sharing. Villa Cleaning Services Abu Dhabi'],
    ['de', 'Toller Beitrag! Mehr dazu auf https://kredit.example'],
    ['fr', 'Merci pour cet article. Appelez le 01 23 45 67 89 pour un devis'],
  ])('when a %s compliment is followed by something to sell, both tokens are there', (_language, text) => {
    expect(praise(text)).toEqual(['praise', 'praise+pivot']);
  });

  it('when a compliment is followed by an ordinary comment, it is praise alone', () => {
    expect(praise('Great post! I tried it with frozen berries and it worked.')).toEqual(['praise']);
  });

  it('when the compliment comes late in a long text, it is no opening', () => {
    expect(
      praise(`${'We walked along the river for hours. '.repeat(6)}Great post, see https://x.example`),
    ).toEqual([]);
  });
});
