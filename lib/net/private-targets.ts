/**
 * Every loopback and private target, as an allow-list for the address guard
 * (lib/net/proxy-guard.ts). Allowed only in local mode (lib/http/server/deployment.ts), where those
 * addresses are the person's own machine and network, never on a hosted instance.
 */
export const PRIVATE_TARGETS: readonly string[] = [
  "localhost",
  "*.localhost",
  "127.0.0.0/8",
  "::1",
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "fc00::/7",
];
