import { detectorLlmEndpointSchema } from '@spam-check/contracts';
import { httpPost, type Upstream } from './http-post';

/**
 * Where the deployment's LLM stage sends texts, as the text detector says (`GET /v1/llm`): its host, null when
 * the stage is off, undefined when the text detector cannot say (down, or an answer of another shape).
 */
export function llmEndpointReader(options: {
  url: string;
  agent: Upstream;
  timeoutMs: number;
}): () => Promise<string | null | undefined> {
  const endpoint = new URL('/v1/llm', options.url);
  return async () => {
    try {
      const answer = await httpPost(endpoint, {
        agent: options.agent,
        method: 'GET',
        headers: { accept: 'application/json' },
        body: '',
        timeoutMs: options.timeoutMs,
      });
      if (answer.status !== 200) return undefined;
      const parsed = detectorLlmEndpointSchema.safeParse(JSON.parse(answer.body.toString('utf8')));
      return parsed.success ? parsed.data.endpoint_host : undefined;
    } catch {
      // The console shows "unknown"; the page itself does not depend on the text detector.
      return undefined;
    }
  };
}
