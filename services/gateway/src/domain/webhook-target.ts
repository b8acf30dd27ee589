import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be posted:
 * - `https` only in production (`http` elsewhere too);
 * - never to an address of the loopback, private, shared (carrier NAT), link-local (cloud metadata),
 *   multicast, reserved or unspecified ranges (an IPv4-mapped IPv6 address is judged as its IPv4 one),
 *   unless private targets are allowed. The rule is applied to the address actually connected to, after
 *   DNS, so that a name resolving to an internal address is refused too.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export interface TargetPolicy {
  httpsOnly: boolean;
  allowPrivate: boolean;
}

/** Whether an IP address may be connected to. */
export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  if (policy.allowPrivate) return true;
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL may not be a target before any DNS (its scheme, or a literal address), or undefined. */
export function targetUrlProblem(
  url: URL,
  policy: TargetPolicy,
): 'https_only' | 'address_not_allowed' | undefined {
  if (url.protocol !== 'https:' && (policy.httpsOnly || url.protocol !== 'http:')) return 'https_only';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !addressAllowed(host, policy)) return 'address_not_allowed';
  return undefined;
}
