import type { FormContext } from '@spam-check/contracts';
import { modelInput } from '../../../src/domain/check-text';
import { FeatureExtractor } from '../../../src/domain/model/extractor';
import { authorTokens, genreTokens } from '../../../src/domain/model/form';
import { SPACE } from '../../../scripts/train/model';

describe('the author fields', () => {
  it.each([
    ['a business name of keywords', { authorName: 'Cleaning Company Dubai' }, 'author:keywords'],
    ['a German keyword name', { authorName: 'Kredit Sofort' }, 'author:keywords'],
    ['a phrase too long for a name', { authorName: 'the very best place to buy shoes' }, 'author:phrase'],
    ['a link as a name', { authorName: 'www.cheap-pills.example' }, 'author:link'],
    ['a website of keywords', { authorUrl: 'https://best-printer-support.example' }, 'url:keywords'],
    [
      'a website with hyphens between words',
      { authorUrl: 'http://my-new-blog-here.example/' },
      'url:hyphens',
    ],
  ])('when the author gives %s, the token is there', (_name, form, token) => {
    expect(authorTokens(form)).toContain(token);
  });

  it('when the author gives a plain name and a personal site, only "a site was given" is a token', () => {
    expect(
      authorTokens({ authorName: 'Claudia Becker', authorUrl: 'https://claudiabecker.example' }),
    ).toEqual(['url:given']);
  });
});

describe('the genre', () => {
  it('when the form type is given, it is a token and is combined with each cue', () => {
    expect(genreTokens({ type: 'comment' }, ['cue:money', 'TEXT_LINKS'])).toEqual([
      'form:comment',
      'form:comment+cue:money',
      'form:comment+TEXT_LINKS',
    ]);
  });

  it('when no form type is given, there are no genre tokens', () => {
    expect(genreTokens({ authorName: 'Anna' }, ['cue:money'])).toEqual([]);
  });

  const normalised = { title: '', subTitle: '', body: 'Please call me back on 0171 2345678 about my order.' };
  const vectorOf = (context?: FormContext) =>
    Array.from(new FeatureExtractor(SPACE).extract(modelInput(normalised, [], context)).vector.indices);

  it('when a check names its form, the model reads features it does not read without one', () => {
    const plain = vectorOf();
    const asContact = vectorOf({ form_type: 'contact' });
    const asComment = vectorOf({ form_type: 'comment' });
    expect(asContact.length).toBeGreaterThan(plain.length);
    expect(asContact).toEqual(expect.arrayContaining(plain));
    expect(asComment).not.toEqual(asContact);
  });

  it('when the context has only form signals the model does not read, the features are those of no context', () => {
    expect(vectorOf({ seconds_to_submit: 12, user_agent: 'Mozilla/5.0' })).toEqual(vectorOf());
  });
});
