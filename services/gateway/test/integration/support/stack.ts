import {
  mailResult,
  sendJson,
  startAuth,
  startGatewayForTest,
  startScriptedServer,
  textResult,
  type Behaviour,
  type Running,
  type RunningGateway,
} from './servers';

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

/**
 * What most gateway suites start: the real auth service, detectors that answer every check ham (with the
 * caller's request id), and the gateways and scripted servers a suite adds; `stop` ends them all.
 */
export interface Stack {
  auth: Running;
  email: ScriptedServer;
  text: ScriptedServer;
  /** A gateway in front of auth and the ham detectors, `env` on top. */
  gateway: (env?: Record<string, string | undefined>) => Promise<RunningGateway>;
  /** A scripted server (a misbehaving detector, say). */
  scripted: (behaviour: Behaviour) => Promise<ScriptedServer>;
  stop: () => Promise<void>;
}

const requestIdOf = (req: { headers: Record<string, unknown> }) => String(req.headers['x-request-id']);

/** An e-mail or a text detector that answers every check ham, with the caller's request id. */
export const startHamDetector = (kind: 'mail' | 'text'): Promise<ScriptedServer> =>
  startScriptedServer((req, res) =>
    sendJson(
      res,
      200,
      kind === 'mail' ? mailResult(false, requestIdOf(req)) : textResult('ham', requestIdOf(req)),
    ),
  );

export async function startStack(authEnv: Record<string, string> = {}): Promise<Stack> {
  const auth = await startAuth(authEnv);
  const [email, text] = [await startHamDetector('mail'), await startHamDetector('text')];
  const added: Running[] = [];
  const track = <T extends Running>(running: T): T => {
    added.push(running);
    return running;
  };
  return {
    auth,
    email,
    text,
    gateway: async (env = {}) =>
      track(
        await startGatewayForTest({
          AUTH_URL: auth.url,
          EMAIL_DETECTOR_URL: email.url,
          TEXT_DETECTOR_URL: text.url,
          ...env,
        }),
      ),
    scripted: async (behaviour) => track(await startScriptedServer(behaviour)),
    stop: async () => {
      await Promise.all(added.map((running) => running.stop()));
      await Promise.all([auth.stop(), email.stop(), text.stop()]);
    },
  };
}
