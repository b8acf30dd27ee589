import { plainMarkdown, sampleLarge, type Row } from '../../../scripts/train/data';

describe('the Stack Exchange spam as the model is trained on it', () => {
  it('when a post links in Markdown, the link text and URL stay and the syntax goes', () => {
    expect(plainMarkdown('**Call now** [Brother printer support](http://x.example/a "t")')).toBe(
      'Call now Brother printer support http://x.example/a',
    );
  });

  it('when a post uses reference links, headings and quotes, only their words stay', () => {
    expect(plainMarkdown('# Keto pills\n> best [Ultra Keto][1]\n\n  [1]: http://keto.example')).toBe(
      'Keto pills\nbest Ultra Keto\n\nhttp://keto.example',
    );
  });

  it('when a post is long, it is cut to a comment length', () => {
    expect(plainMarkdown('word '.repeat(1000)).length).toBe(1500);
  });
});

describe('the large sources cut to a sample', () => {
  const rows = (source: string, label: 'spam' | 'ham', count: number): Row[] =>
    Array.from({ length: count }, (_, i) => ({
      id: `${source}-${label}-${i}`,
      source,
      title: '',
      body: 'x',
      label,
    }));

  it('when supersms has more ham than kept, a fixed part of it is kept and other sources stay whole', () => {
    const all = [...rows('supersms', 'ham', 20_000), ...rows('sms', 'ham', 500)];
    const kept = sampleLarge(all);
    const supersms = kept.filter((row) => row.source === 'supersms').length;
    expect(supersms).toBeGreaterThan(3_500);
    expect(supersms).toBeLessThan(4_500);
    expect(kept.filter((row) => row.source === 'sms')).toHaveLength(500);
    expect(sampleLarge(all)).toEqual(kept);
  });
});
