import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Env } from '@spam-check/service-kit';
import { redisUrl } from '@spam-check/test-support';
import { loadServiceConfig } from '../../src/config';
import { createStore } from '../../src/data-access/create-store';
import { createSecretHasher } from '../../src/domain/secrets';
import { runCli } from '../../src/entry-points/cli/commands';
import { provision } from '../../src/provisioning';
import { basic, deletePrefix, passwordGrant, postForm, startAuth, testEnv, type Harness } from './harness';

const silent = createLogger({ service: 'auth', level: 'silent' });

async function withStore<T>(
  env: Env,
  use: (deps: Awaited<ReturnType<typeof open>>) => Promise<T>,
): Promise<T> {
  const deps = await open(env);
  try {
    return await use(deps);
  } finally {
    await deps.store.close();
    if (deps.config.REDIS_URL) await deletePrefix(deps.config.REDIS_URL, deps.config.AUTH_REDIS_PREFIX);
  }
}
async function open(env: Env) {
  const config = loadServiceConfig(env);
  return {
    config,
    store: await createStore(config, createLogger({ service: 'auth-test', level: 'silent' })),
    hasher: createSecretHasher(config.AUTH_SCRYPT_COST),
  };
}

/** The accounts CLI on the service's store, its output lines kept in `lines`. */
function cliOn(h: Harness) {
  const lines: string[] = [];
  const cli = (...argv: string[]) =>
    runCli(argv, { store: h.store, hasher: createSecretHasher(1024), out: (l) => lines.push(l) });
  return { cli, lines };
}

describe('the CLI', () => {
  it('when clients and users are added, rotated and removed, the token endpoint follows', async () => {
    const h = await startAuth('redis', { AUTH_CLIENT_AUTH_CACHE_SECONDS: '0' });
    const { cli, lines } = cliOn(h);
    try {
      expect(await cli('client', 'add', 'web', '--secret', 'web-secret', '--scopes', 'spam:check')).toBe(0);
      expect(await cli('user', 'add', 'bob', '--password', 'bob-password')).toBe(0);
      const bob = { username: 'bob', password: 'bob-password' };
      const grant = (secret: string) => passwordGrant(h, bob, {}, { Authorization: basic('web', secret) });
      expect((await grant('web-secret')).status).toBe(200);

      expect(await cli('client', 'rotate-secret', 'web')).toBe(0);
      const rotated = /new secret: (\S+)/.exec(lines.at(-1) ?? '')?.[1];
      expect(rotated).toBeDefined();
      expect((await grant('web-secret')).status).toBe(401);
      expect((await grant(rotated!)).status).toBe(200);

      lines.length = 0;
      expect(await cli('client', 'list')).toBe(0);
      const clients = JSON.parse(lines.join('\n')) as { id: string }[];
      expect(clients.map((c) => c.id)).toEqual(['app', 'gateway-test', 'web']);
      expect(lines.join('\n')).not.toMatch(/scrypt|secret/i);

      expect(await cli('user', 'set-password', 'bob', '--password', 'new-password')).toBe(0);
      expect((await grant(rotated!)).status).toBe(400);
      expect(await cli('user', 'remove', 'bob')).toBe(0);
      expect(await cli('user', 'remove', 'bob')).toBe(1);
      expect(await cli('client', 'remove', 'web')).toBe(0);
      lines.length = 0;
      await cli('user', 'list');
      expect(JSON.parse(lines.join('\n'))).toEqual([{ username: 'alice' }]);
    } finally {
      await h.stop();
    }
  });

  it('when a secret with reserved characters is given, the CLI refuses it, says why and stores nothing', async () => {
    const h = await startAuth('redis');
    const { cli } = cliOn(h);
    try {
      await expect(cli('client', 'add', 'plus', '--secret', 'a+b')).rejects.toThrow(
        /client secret may hold only the unreserved characters/,
      );
      expect(await h.store.getClient('plus')).toBeUndefined();
      expect(await cli('client', 'add', 'plus', '--secret', 'a-b')).toBe(0);
      await expect(cli('client', 'rotate-secret', 'plus', '--secret', 'a%b')).rejects.toThrow(/form-encode/);
    } finally {
      await h.stop();
    }
  });

  it('when the verified-secret cache is on, a rotated secret is refused at once', async () => {
    const h = await startAuth('redis', { AUTH_CLIENT_AUTH_CACHE_SECONDS: '300' });
    const { cli } = cliOn(h);
    try {
      expect(await cli('client', 'add', 'cached', '--secret', 'cached-secret')).toBe(0);
      expect(await cli('user', 'add', 'carl', '--password', 'carl-password')).toBe(0);
      const carl = { username: 'carl', password: 'carl-password' };
      const grant = (secret: string) =>
        passwordGrant(h, carl, {}, { Authorization: basic('cached', secret) });
      expect((await grant('cached-secret')).status).toBe(200);
      expect((await grant('cached-secret')).status).toBe(200);
      expect(await cli('client', 'rotate-secret', 'cached', '--secret', 'rotated-secret')).toBe(0);
      expect((await grant('cached-secret')).status).toBe(401);
      expect((await grant('rotated-secret')).status).toBe(200);
    } finally {
      await h.stop();
    }
  });

  it('when a user has scopes, spam:admin is granted only if both the client and the user hold it', async () => {
    const h = await startAuth('redis');
    const { cli, lines } = cliOn(h);
    const grant = (client: string, username: string, scope?: string) =>
      postForm(
        `${h.url}/oauth/token`,
        { grant_type: 'password', username, password: `${username}-password`, ...(scope ? { scope } : {}) },
        { Authorization: basic(client, `${client}-secret`) },
      );
    try {
      await cli(
        'client',
        'add',
        'console',
        '--secret',
        'console-secret',
        '--scopes',
        'spam:admin,spam:check',
      );
      await cli('user', 'add', 'ops', '--password', 'ops-password', '--scopes', 'spam:admin');
      await cli('user', 'add', 'eve', '--password', 'eve-password');
      expect((await grant('console', 'ops', 'spam:admin')).body.scope).toBe('spam:admin');
      expect((await grant('console', 'ops', 'spam:check')).body.error).toBe('invalid_scope');
      expect((await grant('console', 'eve', 'spam:admin')).body.error).toBe('invalid_scope');
      expect((await grant('console', 'eve')).body.scope).toBe('spam:check');
      expect((await grant('app', 'ops')).body.error).toBe('invalid_scope');

      expect(await cli('user', 'set-password', 'ops', '--password', 'ops-password2')).toBe(0);
      expect((await h.store.getUser('ops'))?.scopes).toEqual(['spam:admin']);
      lines.length = 0;
      await cli('user', 'list');
      expect(JSON.parse(lines.join('\n'))).toContainEqual({ username: 'ops', scopes: ['spam:admin'] });
      expect(
        await cli('user', 'set-password', 'ops', '--password', 'ops-password', '--scopes', 'spam:check'),
      ).toBe(0);
      expect((await grant('console', 'ops', 'spam:admin')).body.error).toBe('invalid_scope');
    } finally {
      await h.stop();
    }
  });

  it('when run as a program, it manages the Redis of REDIS_URL', async () => {
    const env = testEnv('redis');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/cli.ts', ...args], {
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    try {
      const added = run('client', 'add', 'cli-client');
      expect(added.status).toBe(0);
      expect(added.stdout).toMatch(/client cli-client created; secret: \S+/);
      const listed = run('client', 'list');
      expect(JSON.parse(listed.stdout)).toEqual([
        { id: 'cli-client', grants: ['password', 'refresh_token'], scopes: ['spam:check'] },
      ]);
      expect(run('nonsense').status).toBe(2);
    } finally {
      await deletePrefix(redisUrl(), env.AUTH_REDIS_PREFIX!);
    }
  });
});

/** Runs `use` with a bootstrap file holding `content`, in a temporary folder removed afterwards. */
async function withBootstrapFile(content: string, use: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'auth-bootstrap-'));
  const file = join(dir, 'bootstrap.json');
  writeFileSync(file, content);
  try {
    await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the bootstrap file', () => {
  it('when applied twice, the second run changes nothing and nothing is duplicated; a changed secret updates', async () => {
    const content = (secret: string) =>
      JSON.stringify({
        clients: [{ id: 'site', secret, grants: ['password', 'refresh_token'], scopes: ['spam:check'] }],
        users: [{ username: 'carol', password: 'carol-password' }],
      });
    await withBootstrapFile(content('site-secret'), async (file) => {
      const env = testEnv('redis', { AUTH_BOOTSTRAP_FILE: file, GATEWAY_CLIENT_SECRET: 'gw-secret' });
      await withStore(env, async ({ config, store, hasher }) => {
        await provision(config, store, hasher, silent);
        await provision(config, store, hasher, silent);
        expect((await store.listClients()).map((c) => c.id)).toEqual(['gateway', 'site']);
        expect((await store.listUsers()).map((u) => u.username)).toEqual(['carol']);
        const before = (await store.getClient('site'))?.secretHash;
        writeFileSync(file, content('site-secret-2'));
        await provision(config, store, hasher, silent);
        const after = await store.getClient('site');
        expect(after?.secretHash).not.toBe(before);
        expect(await hasher.verify('site-secret-2', after!.secretHash)).toBe(true);
        expect((await store.listClients()).map((c) => c.id)).toEqual(['gateway', 'site']);
        // Without demo defaults: a bootstrap file replaces them.
        expect(await store.getClient('demo-client')).toBeUndefined();
        expect(await store.getClient('demo-admin')).toBeUndefined();
        expect(await store.getUser('admin')).toBeUndefined();
      });
    });
  });

  it('when the file is invalid, start-up fails listing the problems', async () => {
    await withBootstrapFile(
      JSON.stringify({ clients: [{ id: 'x', grants: ['implicit'] }] }),
      async (file) => {
        await withStore(
          testEnv('memory', { AUTH_BOOTSTRAP_FILE: file }),
          async ({ config, store, hasher }) => {
            await expect(provision(config, store, hasher, silent)).rejects.toThrow(
              /clients\.0\.secret[\s\S]*clients\.0\.grants/,
            );
          },
        );
      },
    );
  });
});

describe('embedded mode and production', () => {
  it('when there is no REDIS_URL nor bootstrap file, the demo client, user and gateway client work', async () => {
    const h = await startAuth('memory');
    try {
      const config = loadServiceConfig(testEnv('memory'));
      await provision(config, h.store, createSecretHasher(1024), silent);
      const token = await postForm(
        `${h.url}/oauth/token`,
        { grant_type: 'password', username: 'demo', password: 'demo-password' },
        { Authorization: basic('demo-client', 'demo-secret') },
      );
      expect(token.status).toBe(200);
      const answer = await postForm(
        `${h.url}/oauth/introspect`,
        { token: token.body.access_token },
        { Authorization: basic('gateway', 'gateway-secret') },
      );
      expect(answer.body.active).toBe(true);
      const admin = await postForm(
        `${h.url}/oauth/token`,
        { grant_type: 'password', username: 'admin', password: 'admin-password' },
        { Authorization: basic('demo-admin', 'demo-admin-secret') },
      );
      expect(admin.status).toBe(200);
      expect(admin.body.scope).toBe('spam:admin');
      const demoAsAdmin = await postForm(
        `${h.url}/oauth/token`,
        { grant_type: 'password', username: 'demo', password: 'demo-password' },
        { Authorization: basic('demo-admin', 'demo-admin-secret') },
      );
      expect(demoAsAdmin.body.error).toBe('invalid_scope');
    } finally {
      await h.stop();
    }
  });

  it('when REDIS_URL is set without a bootstrap file outside production, the demo client and user exist too', async () => {
    const h = await startAuth('redis');
    try {
      await provision(loadServiceConfig(testEnv('redis')), h.store, createSecretHasher(1024), silent);
      const token = await postForm(
        `${h.url}/oauth/token`,
        { grant_type: 'password', username: 'demo', password: 'demo-password' },
        { Authorization: basic('demo-client', 'demo-secret') },
      );
      expect(token.status).toBe(200);
    } finally {
      await h.stop();
    }
  });

  it('when NODE_ENV is production without a bootstrap file, no demo client or user is created', async () => {
    const env = testEnv('redis', {
      NODE_ENV: 'production',
      GATEWAY_CLIENT_SECRET: `gw-${Date.now()}-secret`,
    });
    await withStore(env, async ({ config, store, hasher }) => {
      await provision(config, store, hasher, silent);
      expect(await store.getClient('demo-client')).toBeUndefined();
      expect(await store.getClient('gateway')).toBeDefined();
    });
  });

  it('when NODE_ENV is production, missing REDIS_URL and default secrets are all refused at once', () => {
    expect(() =>
      loadServiceConfig({ NODE_ENV: 'production', GATEWAY_CLIENT_SECRET: 'gateway-secret' }),
    ).toThrow(/REDIS_URL[\s\S]*GATEWAY_CLIENT_SECRET/);
  });

  it('when Redis is a cluster and AUTH_REDIS_PREFIX has no hash tag, the whole prefix becomes the tag', () => {
    expect(loadServiceConfig({ REDIS_CLUSTER_NODES: 'redis-0:6379' }).AUTH_REDIS_PREFIX).toBe('{auth:}');
    const tagged = loadServiceConfig({ REDIS_CLUSTER_NODES: 'redis-0:6379', AUTH_REDIS_PREFIX: '{auth}:' });
    expect(tagged.AUTH_REDIS_PREFIX).toBe('{auth}:');
    expect(tagged.redis).toEqual({ kind: 'cluster', nodes: [{ host: 'redis-0', port: 6379 }] });
    expect(loadServiceConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).AUTH_REDIS_PREFIX).toBe('auth:');
  });

  it.each([
    'local-gateway-client-secret',
    'compose-demo-secret',
    'dev-demo-secret',
    'gateway-secret',
    'short',
  ])('when NODE_ENV is production, GATEWAY_CLIENT_SECRET=%s (published or short) is refused', (secret) => {
    expect(() =>
      loadServiceConfig({
        NODE_ENV: 'production',
        REDIS_URL: 'redis://127.0.0.1:6379',
        GATEWAY_CLIENT_SECRET: secret,
      }),
    ).toThrow(/GATEWAY_CLIENT_SECRET/);
  });

  it('when NODE_ENV is production, a bootstrap file with a published or short secret lists every one', async () => {
    await withBootstrapFile(
      JSON.stringify({
        clients: [
          { id: 'website', secret: 'compose-demo-secret' },
          { id: 'fine', secret: 'a-long-enough-random-secret' },
        ],
        users: [
          { username: 'backend', password: 'dev-demo-password' },
          { username: 'tiny', password: 'pw' },
        ],
      }),
      async (file) => {
        const env = testEnv('redis', {
          NODE_ENV: 'production',
          AUTH_BOOTSTRAP_FILE: file,
          GATEWAY_CLIENT_SECRET: 'gateway-secret-long-enough',
        });
        await withStore(env, async ({ config, store, hasher }) => {
          const refused = provision(config, store, hasher, silent);
          await expect(refused).rejects.toThrow(/client website[\s\S]*user backend[\s\S]*user tiny/);
          expect(await store.getClient('fine')).toBeUndefined();
        });
      },
    );
  });

  it('when NODE_ENV is production, a bootstrap file with a demo secret is refused', async () => {
    await withBootstrapFile(
      JSON.stringify({ users: [{ username: 'demo', password: 'demo-password' }] }),
      async (file) => {
        const env = testEnv('redis', { NODE_ENV: 'production', AUTH_BOOTSTRAP_FILE: file });
        await withStore(env, async ({ config, store, hasher }) => {
          await expect(provision(config, store, hasher, silent)).rejects.toThrow(/user demo/);
        });
      },
    );
  });
});
