/** Readiness: named dependency checks, and a draining flag set at shutdown. Liveness never looks here. */
export interface Readiness {
  checks: Record<string, () => Promise<void>>;
  draining: boolean;
}

export function createReadiness(checks: Record<string, () => Promise<void>> = {}): Readiness {
  return { checks, draining: false };
}

const CHECK_TIMEOUT_MS = 1000;

export async function evaluateReadiness(
  readiness: Readiness,
): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const entries = await Promise.all(
    Object.entries(readiness.checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), timeout]);
        return [name, 'up'] as const;
      } catch (error) {
        return [name, `down: ${error instanceof Error ? error.message : String(error)}`] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  const ready = !readiness.draining && entries.every(([, state]) => state === 'up');
  return { ready, checks: readiness.draining ? { ...checks, draining: 'yes' } : checks };
}
