import { textResultSchema } from '@spam-check/contracts';
import { createTextChecker, type CheckText } from '../src/domain/check-text';
import { readModelFile } from '../src/data-access/model-file';

/**
 * Inputs at the limits, built to hit the worst case of each regular expression (long runs that almost
 * match). The CPU bound is generous on purpose: it catches catastrophic backtracking (seconds), not slowness;
 * the real figures come from the bench.
 */
describe('inputs at the limits', () => {
  let checkText: CheckText;
  beforeAll(() => {
    checkText = createTextChecker({
      model: readModelFile(),
      askLlm: undefined,
      config: {
        spamThreshold: 0.8,
        suspiciousThreshold: 0.5,
        llmMode: 'never',
        llmBand: [0.3, 0.8],
        denyTerms: ['x-deny'],
      },
    });
  });

  const body = (unit: string, length = 100_000) =>
    unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const title = (unit: string) => body(unit, 1000);

  const cases: [string, { title: string; body: string; sub_title?: string }][] = [
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

  it.each(cases)(
    'when the input is %s, it answers a valid result within a bounded CPU time',
    async (_name, input) => {
      const before = process.cpuUsage();
      const result = await checkText({ ...input, language: 'en', requestId: 'limits' });
      const used = process.cpuUsage(before);
      textResultSchema.parse({ ...result, duration_ms: 0 });
      expect(result.signals.length).toBeGreaterThan(0);
      expect((used.user + used.system) / 1000).toBeLessThan(1000);
    },
  );
});
