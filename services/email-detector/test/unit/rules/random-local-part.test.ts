import { looksRandom } from '../../../src/domain/random-local-part';

describe('random-looking local parts', () => {
  it.each(['x7k2m9p4q1', 'a3f9c2e81b7d4e60', 'qxzvbnmtrk', 'asdfghjklz', 'ab3cd5ef7g9', 'zx81kq0wm2p'])(
    '%s looks random',
    (local) => expect(looksRandom(local)).toBe(true),
  );

  it.each([
    'jane.doe',
    'mrschmidt',
    'jschmidt',
    'anna.schmidt1987',
    'angstschweiss',
    'krzysztof',
    'przybylski',
    'brzeczyszczykiewicz',
    'jeanpierre',
    'francoisxavier',
    'j.dupont',
    'max_mustermann',
    'info2024',
    '4915112345678',
    'christoph',
    'schwarzschild',
    'mueller.thomas',
    'dr.knecht',
  ])('%s does not', (local) => expect(looksRandom(local)).toBe(false));
});

describe('random-looking local part (judged from 8 characters)', () => {
  it.each([
    ['7 characters that switch letters and digits (below: too short)', 'x7k2m9p', false],
    ['8 such characters (at)', 'x7k2m9p4', true],
    ['9 (above)', 'x7k2m9p4q', true],
    ['15 hex characters with two switches (below: not hex enough, too regular)', 'aaaaaaaa1111111', false],
    ['16 hex characters (at)', 'aaaaaaaa11111111', true],
    ['17 hex characters (above)', 'aaaaaaaa111111111', true],
    ['3 letter/digit switches (below)', 'abcdef1ghijk2', false],
    ['4 switches (at)', 'abcdef1ghijk2l', true],
    ['5 switches (above)', 'abcdef1ghijk2l3', true],
    ['10 letters with 2 vowels, 20 % (below: not under)', 'bcdfgbcdae', false],
    ['11 letters with 2 vowels, 18 % (at)', 'bcdfgbcdaef', true],
    ['12 letters with 2 vowels, 17 % (above)', 'bcdfgbcdaefg', true],
  ])('when the local part has %s, it is random: %s', (_name, local, random) => {
    expect(looksRandom(local)).toBe(random);
  });
});
