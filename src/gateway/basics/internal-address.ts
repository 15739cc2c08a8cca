/**
 * Addresses a download made on a provider's word must not reach (docs/gateway.md, "Security"): a provider's
 * answer may name any URL (a Replicate output, an image `url`), and a host name can resolve to the gateway's own
 * network. Checked on the addresses a connection is about to use, so a name that resolves differently later
 * (DNS rebinding) is checked again.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * A request header the gateway's guarded fetch sets on a request to an origin no provider is configured at (a
 * download a provider's answer asked for); the provider fetch removes it and connects through its checked pool.
 */
export const DOWNLOAD_REQUEST_HEADER = 'x-verdict-download';

/** Set on a `fetch` that reads {@link DOWNLOAD_REQUEST_HEADER}; any other `fetch` is never sent the header. */
export const CHECKS_DOWNLOADS = Symbol.for('verdict.checksDownloads');

const INTERNAL_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const INTERNAL_V6: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
  ['fd00:ec2::254', 128], // AWS metadata over IPv6 (inside fc00::/7, named for the reader)
];

const internal = new BlockList();
for (const [network, prefix] of INTERNAL_V4) internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of INTERNAL_V6) internal.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64 or 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted !== null) return dotted[1];
  const groups = expandIpv6(lower);
  if (groups === undefined) return undefined;
  const asV4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible)
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    return g5 === 0 && g6 === 0 ? undefined : asV4(g6, g7);
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return asV4(g6, g7); // NAT64
  if (g0 === 0x2002) return asV4(g1, g2); // 6to4
  return undefined;
}

function expandIpv6(address: string): number[] | undefined {
  const [head = '', tail, extra] = address.split('::');
  if (extra !== undefined) return undefined;
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((group) =>
    Number.parseInt(group, 16),
  );
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}

/** True for an address on the gateway's side of the network: private, loopback, link-local, metadata, reserved. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return internal.check(bare, 'ipv4');
  if (!isIPv6(bare)) return true; // not an address at all: never connect to it on a provider's word
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined && internal.check(v4, 'ipv4')) return true;
  return internal.check(bare, 'ipv6');
}

/**
 * The addresses an operator allows downloads from although they are internal (`upstream.allowDownloadAddresses`:
 * addresses or CIDR ranges, such as `10.1.2.0/24` for an internal object store).
 */
export function createAddressAllowList(entries: readonly string[] = []): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const allowed = new BlockList();
  for (const entry of entries) {
    const [network = '', prefix] = entry.split('/');
    const family = isIPv4(network) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) allowed.addAddress(network, family);
    else allowed.addSubnet(network, Number(prefix), family);
  }
  return (address) => {
    const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    if (isIPv4(bare)) return allowed.check(bare, 'ipv4');
    if (!isIPv6(bare)) return false;
    const v4 = embeddedIpv4(bare);
    return allowed.check(bare, 'ipv6') || (v4 !== undefined && allowed.check(v4, 'ipv4'));
  };
}
