// openid-client (ES modules only) run as its documentation shows, in a process of its own: discovery (RFC 8414),
// client_credentials, the password grant, refresh and revocation. Arguments: issuer, client id and secret,
// username, password. Prints what the test asserts on, as JSON.
import * as oidc from 'openid-client';

const [issuer, clientId, clientSecret, username, password] = process.argv.slice(2);
const server = new URL(issuer);
const config = await oidc.discovery(server, clientId, clientSecret, undefined, {
  algorithm: 'oauth2',
  execute: [oidc.allowInsecureRequests],
});
const check = async (token) =>
  (
    await fetch(new URL('/api/v1/spam/text', server), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hello', body: 'A short note about the weather in the mountains.' }),
    })
  ).status;

const machine = await oidc.clientCredentialsGrant(config, { scope: 'spam:check' });
const user = await oidc.genericGrantRequest(config, 'password', { username, password });
const refreshed = await oidc.refreshTokenGrant(config, user.refresh_token);
const beforeRevocation = await check(refreshed.access_token);
await oidc.tokenRevocation(config, refreshed.access_token);
console.log(
  JSON.stringify({
    tokenEndpoint: config.serverMetadata().token_endpoint,
    machine: { access: Boolean(machine.access_token), refresh: machine.refresh_token ?? null },
    machineCheck: await check(machine.access_token),
    refreshed: {
      access: Boolean(refreshed.access_token),
      rotated: refreshed.refresh_token !== user.refresh_token,
    },
    beforeRevocation,
    afterRevocation: await check(refreshed.access_token),
  }),
);
