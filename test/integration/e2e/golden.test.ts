import { readFileSync } from 'node:fs';
import { textResultSchema } from '@spam-check/contracts';
import { SELF_CONTAINED_ENV, startStack, type Stack } from '@spam-check/process-kit';
import {
  GOLDEN_FILE,
  goldenOf,
  goldenTexts,
  type GoldenPasses,
} from '../../../services/text-detector/test/integration/golden/cases';
import { obtainServerToken, postJson } from './client';

// A part of the text detector's golden verdicts (services/text-detector/test/integration/golden.test.ts)
// through the gateway, as `pnpm start` runs the stack: the gateway's answer to a text is the detector's,
// verdict, score and reasons alike, for a client without settings or reports (LLM off, as there).
describe('golden verdicts through the gateway (embedded stack)', () => {
  let stack: Stack | undefined;

  afterAll(async () => {
    await stack?.stop();
  });

  it('when every eighth golden text is checked through the gateway, each answer is the recorded one', async () => {
    stack = await startStack({ ...SELF_CONTAINED_ENV, TEXT_LLM_MODE: 'never' }, { readyTimeoutMs: 60_000 });
    const issued = await obtainServerToken(stack.gateway, '/');
    expect(issued.status).toBe(200);
    const token = (issued.body as { access_token: string }).access_token;
    const expected = (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenPasses).plain;
    const part = goldenTexts().filter((_, index) => index % 8 === 0);
    const answers: GoldenPasses['plain'] = {};
    const recorded: GoldenPasses['plain'] = {};
    for (const text of part) {
      const body = { title: text.title, body: text.body, ...(text.context && { context: text.context }) };
      const response = await postJson(`${stack.gateway}/${text.lang}/api/v1/spam/text`, token, body);
      expect(response.status).toBe(200);
      answers[text.id] = goldenOf(textResultSchema.parse(response.body));
      recorded[text.id] = expected[text.id]!;
    }
    expect(part.length).toBeGreaterThan(40);
    expect(answers).toEqual(recorded);
  }, 180_000);
});
