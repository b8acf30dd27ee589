import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitForPort } from '@spam-check/process-kit';

const run = promisify(execFile);

/** Debian's WordPress (package `wordpress`), its default theme and its per-site configuration files. */
export const WORDPRESS = '/usr/share/wordpress';
const CONFIG_DIR = '/etc/wordpress';
export const PLUGIN_DIR = resolve(__dirname, '../../integrations/wordpress/spam-check');

export interface WordPressSite {
  url: string;
  admin: { user: string; password: string };
  /** WordPress's debug log (WP_DEBUG_LOG): PHP's warnings, notices and deprecations, and the plugin's log lines. */
  debugLog: () => string;
  /** Runs a command of site.php (WordPress's own functions) and returns its JSON answer. */
  php: (command: string, argument: string) => Promise<any>;
  /** Stops the server and removes the site's database, database user, configuration and files. */
  remove: () => Promise<void>;
}

/** What a test adds to the site's wp-content: plugins linked by folder name, must-use plugins by file name. */
export interface SiteExtras {
  plugins?: Record<string, string>;
  muPlugins?: Record<string, string>;
}

/** Runs SQL as MariaDB's root (no password, over the socket), as on these machines. */
async function sql(statements: string): Promise<void> {
  try {
    await run('mariadb', ['--user=root', '--execute', statements]);
  } catch (error) {
    throw new Error(
      `MariaDB refused the test's SQL as root over the local socket (is mariadb-server running?): ${String(error)}`,
    );
  }
}

/**
 * wp-content of the site: the plugin under test (a symlink to the work tree), Debian's themes and
 * translations, and a
 * must-use plugin that switches WordPress's comment-flood check off for this site only (the test posts many
 * comments from 127.0.0.1 within seconds; the plugin itself leaves the check on).
 */
function contentDir(root: string, extras: SiteExtras): string {
  const content = join(root, 'wp-content');
  mkdirSync(join(content, 'plugins'), { recursive: true });
  mkdirSync(join(content, 'mu-plugins'), { recursive: true });
  symlinkSync(PLUGIN_DIR, join(content, 'plugins', 'spam-check'));
  for (const [name, dir] of Object.entries(extras.plugins ?? {}))
    symlinkSync(dir, join(content, 'plugins', name));
  for (const [name, code] of Object.entries(extras.muPlugins ?? {}))
    writeFileSync(join(content, 'mu-plugins', name), code);
  for (const shared of ['themes', 'languages'])
    symlinkSync(join(WORDPRESS, 'wp-content', shared), join(content, shared));
  writeFileSync(
    join(content, 'mu-plugins', 'test-site.php'),
    [
      '<?php',
      "// The test's own site only: no comment-flood check. WordPress adds its flood filter only when the",
      '// check_comment_flood action runs (check_comment_flood_db), so that action is what is taken off.',
      "remove_action( 'check_comment_flood', 'check_comment_flood_db', 10 );",
      '// The machine runs many test suites at once: the API gets more than the default 5 s to answer.',
      "add_filter( 'spam_check_timeout', function () { return 30; } );",
      '',
    ].join('\n'),
  );
  return content;
}

function configFile(site: {
  url: string;
  database: string;
  user: string;
  password: string;
  content: string;
}) {
  const define = (name: string, value: string | boolean) => `define( '${name}', ${JSON.stringify(value)} );`;
  const salts = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE'].flatMap((name) => [
    define(`${name}_KEY`, randomBytes(32).toString('hex')),
    define(`${name}_SALT`, randomBytes(32).toString('hex')),
  ]);
  return [
    '<?php',
    define('DB_NAME', site.database),
    define('DB_USER', site.user),
    define('DB_PASSWORD', site.password),
    define('DB_HOST', 'localhost'),
    define('WP_HOME', site.url),
    define('WP_SITEURL', site.url),
    define('WP_CONTENT_DIR', site.content),
    define('WP_CONTENT_URL', `${site.url}/wp-content`),
    define('WP_DEBUG', true),
    define('WP_DEBUG_LOG', join(site.content, 'debug.log')),
    define('WP_DEBUG_DISPLAY', false),
    define('DISABLE_WP_CRON', true),
    define('AUTOMATIC_UPDATER_DISABLED', true),
    // No request leaves the machine (update checks, wordpress.org); the API on 127.0.0.1 stays reachable.
    define('WP_HTTP_BLOCK_EXTERNAL', true),
    ...salts,
    '',
  ].join('\n');
}

async function install(url: string, admin: { user: string; password: string }): Promise<void> {
  const response = await fetch(`${url}/wp-admin/install.php?step=2`, {
    method: 'POST',
    body: new URLSearchParams({
      weblog_title: 'Spam check test site',
      user_name: admin.user,
      admin_password: admin.password,
      admin_password2: admin.password,
      pw_weak: '1',
      admin_email: 'admin@example.org',
      blog_public: '0',
    }),
  });
  const page = await response.text();
  if (response.status !== 200 || !page.includes('wp-login.php'))
    throw new Error(`WordPress's installation failed (${response.status}): ${page.slice(0, 500)}`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, 'exit');
  process.kill(-server.pid!, 'SIGTERM');
  await exited;
}

/**
 * A WordPress site of this run: its own MariaDB database and user, Debian's WordPress configured by
 * /etc/wordpress/config-<name>.php, served by `php -S` on loopback, installed through wp-admin/install.php.
 */
export async function startSite(extras: SiteExtras = {}): Promise<WordPressSite> {
  const id = randomUUID().slice(0, 8);
  const name = `spam-check-test-${id}`;
  const database = `spam_check_test_${id}`;
  const user = `spam_check_${id}`;
  const password = randomBytes(16).toString('hex');
  const root = mkdtempSync(join(tmpdir(), 'wordpress-'));
  const config = join(CONFIG_DIR, `config-${name}.php`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, WORDPRESS_CONFIG: name };
  let server: ChildProcess | undefined;

  const remove = async () => {
    if (server) await stopServer(server);
    await sql(`DROP DATABASE IF EXISTS \`${database}\`; DROP USER IF EXISTS '${user}'@'localhost';`);
    rmSync(config, { force: true });
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await sql(
      `CREATE DATABASE \`${database}\`; CREATE USER '${user}'@'localhost' IDENTIFIED BY '${password}';` +
        ` GRANT ALL PRIVILEGES ON \`${database}\`.* TO '${user}'@'localhost';`,
    );
    const content = contentDir(root, extras);
    writeFileSync(config, configFile({ url, database, user, password, content }));
    server = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', WORDPRESS, join(__dirname, 'router.php')], {
      env: { ...env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    server.stderr!.resume();
    await waitForPort(port);
    const admin = { user: 'admin', password: randomBytes(12).toString('hex') };
    await install(url, admin);
    const php = async (command: string, argument: string) => {
      const { stdout } = await run('php', [join(__dirname, 'site.php'), command, argument], { env });
      return JSON.parse(stdout);
    };
    const debugLog = () => {
      try {
        return readFileSync(join(content, 'debug.log'), 'utf8');
      } catch {
        return '';
      }
    };
    return { url, admin, debugLog, php, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
