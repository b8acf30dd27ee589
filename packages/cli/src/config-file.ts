import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Language, StoredTokens } from '@spam-check/client';
import { CliError, EXIT } from './exit-codes';

/** What `spam-check login` keeps: where the API is, the OAuth client, and the tokens (never the password). */
export interface CliConfig {
  url: string;
  client_id: string;
  client_secret: string;
  /** `client_credentials`: the client signs in as itself and again when its token is due (no refresh token). */
  grant?: 'client_credentials';
  language?: Language;
  tokens?: StoredTokens;
}

/** `$SPAM_CHECK_CONFIG`, else `$XDG_CONFIG_HOME/spam-check/config.json`, else `~/.config/spam-check/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPAM_CHECK_CONFIG) return env.SPAM_CHECK_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'spam-check', 'config.json');
}

export function readConfig(path: string): CliConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as CliConfig;
  } catch {
    throw new CliError(`${path} is not valid JSON: run spam-check login again`, EXIT.NOT_SIGNED_IN);
  }
}

/**
 * Writes the file readable by its owner only (0600, in a 0700 directory): it holds a client secret and a
 * refresh token. Written to a temporary file first and renamed, so a crash never leaves half a file.
 */
export function writeConfig(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

export function removeConfig(path: string): void {
  rmSync(path, { force: true });
}
