import type { Logger } from '@spam-check/service-kit';
import { httpPost, type Upstream } from './http-post';

export interface DetectorHealth {
  /** True while the detector is known to be down: its calls are refused at once (503, Retry-After). */
  isDown(): boolean;
  /**
   * Calls `fail` the moment the detector is marked down, so that a call already waiting on it ends then rather
   * than at its own deadline; the returned function forgets it (call it when the call has settled).
   */
  whileWaiting(fail: () => void): () => void;
  /** An answer seen elsewhere (the readiness check's): the detector is up again at once. */
  answered(): void;
  stop(): void;
}

/** A probe's deadline: longer than any pause of a healthy detector's event loop, shorter than a check's. */
const PROBE_TIMEOUT_MS = 900;

/**
 * Watches one detector in the background, so that a detector that stopped answering costs a client a fast
 * 503 rather than the whole DETECTOR_TIMEOUT_MS. Rules:
 * - the probe is `GET /livez` every `intervalMs` (after the previous one ended), with a 900 ms deadline;
 * - any HTTP answer is a live process (what it thinks of its own dependencies is its readiness' business);
 *   no answer in time, or no connection, is a failed probe;
 * - `downAfter` failed probes in a row mark it down (one slow probe is not enough: a detector busy with a
 *   large batch may be late once); the first answer (a probe's or the readiness check's) marks it up again;
 * - marking it down ends every call then waiting on it (`whileWaiting`): they are as refused as the next ones.
 * `intervalMs` 0 turns the watching off (never down).
 */
export function watchDetector(options: {
  name: string;
  url: string;
  agent: Upstream;
  intervalMs: number;
  downAfter: number;
  logger: Logger;
}): DetectorHealth {
  const { intervalMs, downAfter, logger } = options;
  const livez = new URL('/livez', options.url);
  let failures = 0;
  let stopped = intervalMs === 0;
  let timer: NodeJS.Timeout | undefined;
  const waiting = new Set<() => void>();
  const sawAnswer = () => {
    if (failures >= downAfter) logger.warn({ detector: options.name }, 'detector answers again');
    failures = 0;
  };
  const probe = async () => {
    const answered = await httpPost(livez, {
      agent: options.agent,
      method: 'GET',
      headers: {},
      body: '',
      timeoutMs: PROBE_TIMEOUT_MS,
    }).then(
      () => true,
      () => false,
    );
    if (answered) sawAnswer();
    else if (++failures === downAfter) {
      logger.warn(
        { detector: options.name, waiting: waiting.size },
        'detector down: its calls, waiting and new, are refused until it answers',
      );
      const fails = [...waiting];
      waiting.clear();
      for (const fail of fails) fail();
    }
    if (!stopped) timer = setTimeout(() => void probe(), intervalMs).unref();
  };
  if (!stopped) timer = setTimeout(() => void probe(), intervalMs).unref();
  return {
    isDown: () => failures >= downAfter,
    whileWaiting(fail) {
      if (stopped) return () => undefined;
      waiting.add(fail);
      return () => waiting.delete(fail);
    },
    answered: sawAnswer,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
