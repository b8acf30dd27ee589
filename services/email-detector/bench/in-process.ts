import { domainToASCII } from 'node:url';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import { checkEmail, type EmailCheckDeps } from '../src/domain/check-email';
import { createDisposableDomains } from '../src/domain/disposable';
import { createOperatorList } from '../src/domain/operator-lists';
import { BENCH_ADDRESSES } from './addresses';

/** Checks per second of the domain function with DNS off, on this one thread, for `seconds`. */
export async function benchInProcess(seconds: number): Promise<{ checksPerSecond: number; checks: number }> {
  const deps: EmailCheckDeps = {
    disposableDomains: createDisposableDomains(disposableEmailBlocklist()),
    allowList: createOperatorList(['partner.example'], domainToASCII),
    denyList: createOperatorList(['blocked.example'], domainToASCII),
    lookupMailServers: null,
  };
  const run = async (until: bigint) => {
    let checks = 0;
    while (process.hrtime.bigint() < until) {
      for (const email of BENCH_ADDRESSES)
        await checkEmail({ email, language: 'en', requestId: 'bench' }, deps);
      checks += BENCH_ADDRESSES.length;
    }
    return checks;
  };
  await run(process.hrtime.bigint() + 500_000_000n);
  const started = process.hrtime.bigint();
  const checks = await run(started + BigInt(Math.round(seconds * 1e9)));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { checksPerSecond: Math.round(checks / elapsed), checks };
}
