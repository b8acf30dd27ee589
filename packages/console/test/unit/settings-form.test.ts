import { formFromSettings, settingsFromForm } from '../../src/settings-form';

describe('the settings form', () => {
  it('when site rules are filled in, language codes split on commas, spaces or lines and links become a number', () => {
    expect(
      settingsFromForm({ 'text_rules.allowed_languages': ' de, fr\nen ', 'text_rules.max_links': '4' }),
    ).toEqual({ text_rules: { allowed_languages: ['de', 'fr', 'en'], max_links: 4 } });
  });

  it('when the site rule fields are empty, the document has no site rules', () => {
    expect(settingsFromForm({ 'text_rules.allowed_languages': ' ', 'text_rules.max_links': '' })).toEqual({});
  });

  it('when links are not a number, the text goes to the API as it is, for it to name', () => {
    expect(settingsFromForm({ 'text_rules.max_links': 'ten' })).toEqual({ text_rules: { max_links: 'ten' } });
  });

  it('when settings hold site rules, or rules switched off with null, the form shows them or leaves them empty', () => {
    expect(formFromSettings({ text_rules: { allowed_languages: ['de', 'fr'], max_links: 2 } })).toEqual({
      'text_rules.allowed_languages': 'de, fr',
      'text_rules.max_links': '2',
    });
    expect(formFromSettings({ text_rules: { allowed_languages: null, max_links: null } })).toEqual({});
  });
});
