// Loaded with `node --import` by `pnpm test:clients`: names under spam-check.test (the Akismet clients put the
// key in a subdomain, `<key>.spam-check.test`) resolve to loopback, as a wildcard DNS record would in a
// deployment. Every other name goes to the system resolver unchanged; the clients themselves are untouched.
import dns from 'node:dns';

const TEST_DOMAIN = /(^|\.)spam-check\.test\.?$/i;
const systemLookup = dns.lookup;

dns.lookup = function lookup(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const settings = typeof options === 'object' && options !== null ? options : {};
  if (typeof hostname !== 'string' || !TEST_DOMAIN.test(hostname))
    return systemLookup.call(dns, hostname, options, callback);
  const address = { address: '127.0.0.1', family: 4 };
  process.nextTick(() =>
    settings.all ? done(null, [address]) : done(null, address.address, address.family),
  );
  return undefined;
};
