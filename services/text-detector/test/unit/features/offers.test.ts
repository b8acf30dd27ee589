import { normaliseForModel } from '../../../src/domain/model/canonical';
import { offerTokens } from '../../../src/domain/model/offers';

const offers = (text: string) => offerTokens(normaliseForModel(text));

describe('offer families (what comment spam sells, in en/de/fr)', () => {
  it.each([
    ['a German loan offer', 'Sofortkredit bis 5.000 € ohne Schufa, auch bei negativer Bonität', 'offer:loan'],
    ['a French loan offer', 'Prêt entre particuliers sans justificatif, réponse en 24 h', 'offer:loan'],
    ['an English loan offer', 'Payday loans with no credit check, cash today', 'offer:loan'],
    ['a German casino', 'Im Online-Casino warten 200 Freispiele auf dich', 'offer:casino'],
    ['a French casino', 'Machines à sous et bonus sans dépôt', 'offer:casino'],
    ['German pharmacy', 'Potenzmittel ohne Rezept bestellen', 'offer:pharma'],
    ['French pharmacy', 'Viagra sans ordonnance, pharmacie en ligne', 'offer:pharma'],
    ['German dating', 'Heiße Singles aus deiner Stadt, Sexkontakte gratis', 'offer:dating'],
    ['French dating', 'Rencontres coquines près de chez toi', 'offer:dating'],
    ['English paid services', 'Cheap SEO services and backlinks for your site', 'offer:services'],
    ['a German service drop', 'Umzugsfirma Berlin, günstig und schnell', 'offer:services'],
  ])('when the text is %s, it names the family', (_name, text, token) => {
    expect(offers(text)).toContain(token);
  });

  it.each([
    [
      'a German comment about a mortgage',
      'Wir haben den Kredit für die Wohnung bei unserer Sparkasse umgeschuldet.',
    ],
    ['a French recipe comment', "J'ai remplacé le sucre par du miel, c'était délicieux."],
    ['an English question about a spa town', 'Is the old spa building in Baden-Baden worth a visit?'],
    ['a German order mail', 'Ihre Bestellung 30418 ist eingegangen, Zahlung per PayPal erhalten.'],
  ])('when the text is %s, it names none', (_name, text) => {
    expect(offers(text)).toEqual([]);
  });
});
