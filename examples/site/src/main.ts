import { randomBytes } from 'node:crypto';
import { startStack } from '@spam-check/process-kit';
import { createSite } from './site';

/**
 * `pnpm example`: the example site on PORT (default 3000). Without SPAM_CHECK_URL it starts the whole stack
 * first, as `pnpm start` does (embedded mode, demo client), and stops it on Ctrl-C.
 */
async function main(env = process.env) {
  const stack = env.SPAM_CHECK_URL ? undefined : await startStack({ EMAIL_DNS_CHECK: 'off' });
  const secret = env.SITE_SECRET ?? randomBytes(32).toString('base64url');
  const site = createSite({
    api: {
      baseUrl: env.SPAM_CHECK_URL ?? stack!.gateway,
      clientId: env.SPAM_CHECK_CLIENT_ID ?? 'demo-client',
      clientSecret: env.SPAM_CHECK_CLIENT_SECRET ?? 'demo-secret',
    },
    secret,
    // A comment or sign-up posted at once or by a crawler is refused too, not only a spam verdict.
    refuse: ['spam', 'suspicious'],
    mode: env.SPAM_CHECK_MODE === 'dry-run' ? 'dry-run' : 'enforce',
    onUnavailable: env.SPAM_CHECK_ON_UNAVAILABLE === 'reject' ? 'reject' : 'allow',
  });
  const port = Number(env.PORT ?? 3000);
  const server = site.listen(port, '127.0.0.1', () => {
    process.stdout.write(
      `example site at http://127.0.0.1:${port}/comments (API: ${env.SPAM_CHECK_URL ?? stack!.gateway})\n`,
    );
  });
  const stop = () => {
    server.close();
    void stack?.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
