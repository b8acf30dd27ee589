import { readFileSync } from 'node:fs';
import { SpamCheckClient, type Language } from '@spam-check/client';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { configPath, readConfig, writeConfig, type CliConfig } from './config-file';
import { CliError, EXIT } from './exit-codes';

const LANGUAGES = ['de', 'fr', 'en'];

export interface Common {
  json?: boolean;
  lang?: Language;
  url?: string;
}

export const positiveInt = (max: number) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
    throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
  return parsed;
};

export function withCommon(command: Command): Command {
  return command
    .option('--json', 'print the answer as JSON')
    .addOption(new Option('--lang <language>', 'language of messages').choices(LANGUAGES))
    .option('--url <url>', 'gateway URL (default: the one of spam-check login)');
}

export function readText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, EXIT.DATA);
  }
}

/** The client of the signed-in user; rotated tokens are written back to the config file at once. */
export function signedInClient(options: Common, env: NodeJS.ProcessEnv): SpamCheckClient {
  const path = configPath(env);
  const config = readConfig(path);
  if (!config?.tokens) throw new CliError('not signed in: run spam-check login', EXIT.NOT_SIGNED_IN);
  let current: CliConfig = config;
  const language = options.lang ?? config.language;
  return new SpamCheckClient({
    baseUrl: options.url ?? config.url,
    client: { clientId: config.client_id, clientSecret: config.client_secret },
    ...(config.grant ? { grant: config.grant } : {}),
    tokens: config.tokens,
    ...(language ? { language } : {}),
    onTokens: (tokens) => {
      current = { ...current, tokens };
      writeConfig(path, current);
    },
  });
}
