import { z } from 'zod';

/** The structured answer the LLM must give; validated with zod before it is trusted. */
export const llmAnswerSchema = z.object({
  spam: z.boolean(),
  confidence: z.number().min(0).max(1),
  categories: z.array(z.string().max(40)).max(8),
  reason: z.string().max(300),
});
export type LlmAnswer = z.infer<typeof llmAnswerSchema>;

export type LlmFailure = 'not_configured' | 'timeout' | 'error' | 'rate_limited' | 'malformed';

export type LlmOutcome =
  { ok: true; answer: LlmAnswer; cached: boolean } | { ok: false; failure: LlmFailure };

export interface LlmQuestion {
  title: string;
  subTitle: string;
  body: string;
  /** The detected language (ISO 639-1), or null; the LLM judges the text for a website in it. */
  language: string | null;
}

/** The LLM stage as the domain sees it; implemented in data-access (OpenAI SDK plus cache). */
export type AskLlm = (question: LlmQuestion) => Promise<LlmOutcome>;

/** Characters of body sent to the LLM; the rest is cut (noted in the prompt). */
export const LLM_BODY_LIMIT = 8000;
