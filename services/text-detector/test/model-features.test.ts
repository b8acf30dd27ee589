import { readModelFile } from '../src/data-access/model-file';
import { FeatureExtractor, genreTokenIndices, type FeatureSpace } from '../src/domain/model/features';

/** The genre options of the feature space (experiments of scripts/train.ts; the shipped model uses none). */
describe('model feature space with genres', () => {
  const base: FeatureSpace = {
    bits: 20,
    wordNorm: 1,
    charNorm: 0.5,
    shapeNorm: 0.5,
    cueNorm: 1,
    hash: 2,
    charMax: 4,
    charLimit: 1000,
    textLimit: 4000,
  };
  const short = { title: '', body: 'check out my new video' };
  const long = {
    title: 'Minutes',
    body: 'The committee met on Monday and agreed on the budget. '.repeat(10),
  };

  it('when the space has no genre, no genre token is emitted and the shipped model has none', () => {
    const vector = new FeatureExtractor(base).extract(short);
    for (const index of genreTokenIndices(base)) expect(vector.indices).not.toContain(index);
    expect(readModelFile().header.space.genreLength).toBeUndefined();
  });

  it('when the space has a genre length, a short text gets the short token and a long text the long one', () => {
    const space = { ...base, genreLength: 300 };
    const [, shortToken, longToken] = genreTokenIndices(space);
    const extractor = new FeatureExtractor(space);
    const shortVector = extractor.extract(short);
    const longVector = extractor.extract(long);
    expect(shortVector.indices).toContain(shortToken);
    expect(shortVector.indices).not.toContain(longToken);
    expect(longVector.indices).toContain(longToken);
    expect(longVector.values[longVector.indices.indexOf(longToken as number)]).toBe(1);
  });

  it('when genre copies are on, each copied block doubles its entries without changing the originals', () => {
    const plain = new FeatureExtractor({ ...base, genreLength: 300 }).extract(short);
    const copied = new FeatureExtractor({ ...base, genreLength: 300, genreCopy: 15 }).extract(short);
    // Every original feature keeps its value (barring hash collisions with a copy, absent in this text).
    plain.indices.forEach((index, k) =>
      expect(copied.values[copied.indices.indexOf(index)]).toBeCloseTo(plain.values[k] as number, 6),
    );
    expect(copied.indices.length).toBe(2 * plain.indices.length - 1);
  });
});
