import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The clients and users of an auth bootstrap file (services/auth README, "Bootstrap file"). */
export interface BootstrapAccounts {
  clients: object[];
  users?: object[];
}

/** Writes an auth bootstrap file (AUTH_BOOTSTRAP_FILE) into a new temporary folder; answers its path. */
export function writeBootstrapFile(accounts: BootstrapAccounts): string {
  const file = join(mkdtempSync(join(tmpdir(), 'spam-check-bootstrap-')), 'bootstrap.json');
  writeFileSync(file, JSON.stringify(accounts));
  return file;
}
