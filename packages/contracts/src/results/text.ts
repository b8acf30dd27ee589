import { z } from 'zod';
import { commonResultFields } from './common';

export const textEngineSchema = z.enum(['rules', 'model', 'llm']);
export type TextEngine = z.infer<typeof textEngineSchema>;

export const textResultSchema = z.object({
  ...commonResultFields,
  language: z.string().nullable().describe('Detected language (ISO 639-1), or null.'),
  engine: textEngineSchema.describe('Which stage decided the verdict.'),
  degraded: z.boolean().describe('True when the LLM was wanted but unavailable.'),
  signals: z
    .object({
      links: z.number().int().nonnegative(),
      link_density: z.number().nonnegative(),
      shorteners: z.number().int().nonnegative(),
      uppercase_ratio: z.number().min(0).max(1),
      length: z.number().int().nonnegative().describe('Characters of normalised text.'),
    })
    .catchall(z.union([z.number(), z.boolean(), z.string()]))
    .describe('Measured properties of the text.'),
});
export type TextResult = z.infer<typeof textResultSchema>;
