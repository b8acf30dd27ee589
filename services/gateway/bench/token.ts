/** An access token of the demo user (password grant through the gateway), as a client gets one. */
export async function demoToken(gateway: string): Promise<string> {
  const response = await fetch(`${gateway}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=password&username=demo&password=demo-password',
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
