/**
 * `pnpm start`: the whole stack on one machine, from source, with the embedded defaults of docs/design.md,
 * Deployment (no Redis, RabbitMQ or OpenAI needed; REDIS_URL / AMQP_URL / OPENAI_API_KEY are used when set).
 * Each service's log lines are prefixed with its name; Ctrl-C, or a SIGTERM to pnpm or to this process, stops
 * everything.
 */
import {
  SERVICES,
  spawnService,
  stopService,
  waitForReady,
  type ServiceName,
  type ServiceProcess,
} from '@spam-check/process-kit';

const PORTS: Record<ServiceName, number> = {
  gateway: Number(process.env.GATEWAY_PORT ?? 8080),
  auth: Number(process.env.AUTH_PORT ?? 8081),
  'email-detector': Number(process.env.EMAIL_DETECTOR_PORT ?? 8082),
  'text-detector': Number(process.env.TEXT_DETECTOR_PORT ?? 8083),
};
const COLOURS: Record<ServiceName, string> = {
  gateway: '36',
  auth: '35',
  'email-detector': '33',
  'text-detector': '32',
};

function prefixer(name: ServiceName): (chunk: string) => void {
  const label = process.stdout.isTTY
    ? `\u001b[${COLOURS[name]}m${name.padEnd(14)}\u001b[0m|`
    : `${name.padEnd(14)}|`;
  let pending = '';
  return (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(`${label} ${line}\n`);
  };
}

function instructions(gateway: string): string {
  const custom = Boolean(process.env.AUTH_BOOTSTRAP_FILE);
  const [client, secret, user, password] = custom
    ? ['<client>', '<secret>', '<user>', '<password>']
    : ['demo-client', 'demo-secret', 'demo', 'demo-password'];
  const json = `-H 'Authorization: Bearer '"$TOKEN" -H 'Content-Type: application/json'`;
  return `
Spam check API is up at ${gateway}   (API reference: ${gateway}/docs; gateway probes and metrics on port ${process.env.GATEWAY_MANAGEMENT_PORT ?? '9080'})
${
  custom
    ? `Credentials: those of AUTH_BOOTSTRAP_FILE (${process.env.AUTH_BOOTSTRAP_FILE})`
    : `Demo credentials: client ${client} / ${secret}, user ${user} / ${password}
Demo admin (scope spam:admin, admin API under /api/v1/admin, see docs/admin.md; settings and stats need REDIS_URL): client demo-admin / demo-admin-secret, user admin / admin-password`
}

# get a token (German messages: /deoauth/token, French: /froauth/token)
TOKEN=$(curl -s ${gateway}/deoauth/token -u ${client}:${secret} -d grant_type=password -d username=${user} -d password=${password} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')

# e-mail check
curl -s ${gateway}/deapi/v1/spam/mail ${json} -d '{"email":"max.mustermann@gmial.com"}'

# text check
curl -s ${gateway}/frapi/v1/spam/text ${json} -d '{"title":"Gagnez 1000 €","body":"Cliquez vite: http://bit.ly/xyz"}'

# hybrid check (add -H 'X-Internal-Step-By-Step: true' for step-by-step)
curl -s ${gateway}/api/v1/spam/hybrid-check ${json} -d '{"email":"anna.schmidt@gmx.de","title":"Hello","body":"Nice article, thanks!"}'

Press Ctrl-C to stop.
`;
}

const messageOf = (error: unknown) => `${error instanceof Error ? error.message : String(error)}\n`;

async function main(): Promise<void> {
  const services: ServiceProcess[] = [];
  const wiring = {
    GATEWAY_MANAGEMENT_PORT: process.env.GATEWAY_MANAGEMENT_PORT ?? '9080',
    AUTH_URL: `http://127.0.0.1:${PORTS.auth}`,
    EMAIL_DETECTOR_URL: `http://127.0.0.1:${PORTS['email-detector']}`,
    TEXT_DETECTOR_URL: `http://127.0.0.1:${PORTS['text-detector']}`,
  };
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nstopping all services...\n');
    await Promise.all(services.map(stopService));
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // `pnpm start` stopped by a signal to pnpm alone (`kill`, `timeout`) ends pnpm without passing the signal on:
  // this process is then handed to init, and stops the services itself. So the stack lives as long as the
  // process that started it (run it under a supervisor, or `nohup pnpm start`, to keep it beyond a shell).
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stopAll(0);
  }, 500).unref();

  for (const name of SERVICES) {
    const service = spawnService(name, { ...wiring, ...process.env, ...wiring }, PORTS[name], {
      onOutput: prefixer(name),
    });
    service.child.on('exit', (code, signal) => {
      if (stopping) return;
      process.stdout.write(`${name} exited (${signal ?? code}); stopping the stack\n`);
      void stopAll(1);
    });
    services.push(service);
  }
  try {
    await Promise.all(services.map((service) => waitForReady(service, { timeoutMs: 30_000 })));
  } catch (error) {
    // A service that did not come up stops the others too: nothing is left running behind the message.
    process.stderr.write(messageOf(error));
    await stopAll(1);
    return;
  }
  process.stdout.write(instructions(`http://127.0.0.1:${PORTS.gateway}`));
}

main().catch((error: unknown) => {
  process.stderr.write(messageOf(error));
  process.exit(1);
});
