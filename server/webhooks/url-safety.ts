// Merchant webhook URLs are untrusted: refuse destinations inside our network (SSRF), both when the URL is
// registered and again on every connection, on the address the name resolves to (DNS rebinding).
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import type { components } from "../../generated/api.ts";

type ErrorDetail = components["schemas"]["ErrorDetail"];
type IP = ipaddr.IPv4 | ipaddr.IPv6;

export interface UrlSafetyOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: skip the destination checks (tests, local development). */
  allowPrivateNetworks?: boolean;
}

/** Error code of a connection refused by the guard (`err.code`). */
export const BLOCKED_CODE = "EWEBHOOKBLOCKED";

export class WebhookDestinationBlockedError extends Error {
  readonly code = BLOCKED_CODE;
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`${address} is ${reason}`);
  }
}

// Instance metadata services with addresses outside the ranges refused anyway (Azure's WireServer is public
// address space), and the well-known ones named for a clearer message.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "168.63.129.16", "100.100.100.200", "fd00:ec2::254"]);

const cidrs = (list: string[]) => list.map((c) => ipaddr.parseCIDR(c));
// Ranges ipaddr.js 1.9 classifies as unicast although they are not reachable public destinations.
const EXTRA_V4 = cidrs(["198.18.0.0/15"]); // benchmarking
const GLOBAL_V6 = ipaddr.parseCIDR("2000::/3");
const EXTRA_V6 = cidrs([
  "2001::/23", // IETF protocol assignments: Teredo, benchmarking, ORCHID
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation (RFC 9637)
]);

const V4_REASONS: Record<string, string> = {
  private: "a private address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  carrierGradeNat: "a carrier-grade NAT address",
  reserved: "a reserved address",
};
const V6_REASONS: Record<string, string> = {
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  uniqueLocal: "a private (unique local) address",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
};

/** Why an address may not receive webhooks, or undefined when it is a public unicast address. */
export function refusedAddressReason(address: string): string | undefined {
  let ip: IP;
  try {
    ip = ipaddr.parse(address.replace(/^\[(.*)\]$/, "$1"));
  } catch {
    return "not a valid IP address";
  }
  return reasonFor(ip);
}

function reasonFor(ip: IP): string | undefined {
  if (METADATA_ADDRESSES.has(ip.toString())) return "a cloud metadata address";
  if (ip.kind() === "ipv4") {
    const v4 = ip as ipaddr.IPv4;
    const range = v4.range();
    if (range !== "unicast") return V4_REASONS[range] ?? "a reserved address";
    if (EXTRA_V4.some((c) => v4.match(c as [ipaddr.IPv4, number]))) return "a reserved address";
    return undefined;
  }
  const v6 = ip as ipaddr.IPv6;
  if (v6.zoneId) return "a link-local address";
  const range = v6.range();
  // NAT64 and 6to4 reach the IPv4 address they embed: judge that one.
  if (range === "rfc6052") return embedded(v6, 6);
  if (range === "6to4") return embedded(v6, 1);
  if (V6_REASONS[range]) return V6_REASONS[range];
  if (!v6.match(GLOBAL_V6 as [ipaddr.IPv6, number])) return "a reserved address";
  if (EXTRA_V6.some((c) => v6.match(c as [ipaddr.IPv6, number]))) return "a reserved address";
  return undefined;
}

/** The IPv4 address held in 16-bit parts [at, at+1] of an IPv6 address, judged on its own. */
function embedded(v6: ipaddr.IPv6, at: number): string | undefined {
  const [hi = 0, lo = 0] = v6.parts.slice(at, at + 2);
  const v4 = new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const reason = reasonFor(v4);
  return reason && `an IPv6 address embedding ${v4.toString()} (${reason})`;
}

/** Host names that never lead to a public receiver. Addresses are checked separately. */
function refusedHostnameReason(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "metadata.google.internal" || name === "metadata.goog") return "a cloud metadata host";
  if (name === "localhost" || name.endsWith(".localhost")) return "a loopback host";
  if (/\.(local|internal|home\.arpa)$/.test(name)) return "a local network name";
  // Single-label names resolve through the search domains of our own network.
  if (!name.includes(".")) return "not a fully qualified domain name";
  return undefined;
}

/**
 * Checks a webhook URL at create/update. Returns the problems as error details (empty when acceptable),
 * for a 400 `validation_failed`. Never echoes the URL itself: its query may hold a merchant's secret.
 */
export function checkWebhookUrl(raw: string, opts: UrlSafetyOptions = {}, path = "/body/url"): ErrorDetail[] {
  const problems = urlFormProblems(raw, path);
  if (problems.length || opts.allowPrivateNetworks) return problems;
  return destinationProblems(new URL(raw), path);
}

/**
 * What is wrong with a webhook URL's form, whatever the operator allows: each reason its own code (a value rule of
 * the registry, so that one 400 names it beside the body's other problems: webhooks/input-checks.ts).
 */
export function urlFormProblems(raw: string, path = "/body/url"): ErrorDetail[] {
  const problem = (code: string, message: string): ErrorDetail[] => [{ path, code, message }];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem("invalid_url", "must be an absolute http or https URL");
  }
  const problems: ErrorDetail[] = [];
  if (url.protocol !== "http:" && url.protocol !== "https:")
    problems.push(...problem("unsupported_scheme", "must use http or https"));
  if (url.username || url.password)
    problems.push(
      ...problem(
        "credentials_in_url",
        "must not contain a user name or password (use the endpoint's Basic credentials instead)",
      ),
    );
  if (!url.hostname) problems.push(...problem("missing_host", "must name a host"));
  return problems;
}

/** A URL whose host is a private, loopback or metadata address or name: refused unless the operator allows it. */
function destinationProblems(url: URL, path: string): ErrorDetail[] {
  const problem = (code: string, message: string): ErrorDetail[] => [{ path, code, message }];
  const problems: ErrorDetail[] = [];
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // The WHATWG parser has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1.
  if (net.isIP(host)) {
    const reason = refusedAddressReason(host);
    if (reason)
      problems.push(
        ...problem(
          "destination_not_allowed",
          `host ${host} is ${reason}; webhooks go to public internet addresses only`,
        ),
      );
  } else {
    const reason = refusedHostnameReason(host);
    if (reason)
      problems.push(
        ...problem("destination_not_allowed", `host ${host} is ${reason}; webhooks go to public internet hosts only`),
      );
  }
  return problems;
}

type LookupAddress = dns.LookupAddress;
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** The resolver the guard asks; node's dns.lookup unless a test injects another. */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for node's net/http/https options (or an Agent's) that resolves the name and refuses the
 * connection with `EWEBHOOKBLOCKED` when ANY resolved address is refused: the address connected to is the
 * one checked, so a name that resolved to a public address at registration cannot rebind to an internal one.
 */
export function createGuardedLookup(opts: UrlSafetyOptions & { resolve?: Resolver } = {}) {
  const resolve: Resolver = opts.resolve ?? ((h, o, cb) => dns.lookup(h, o, cb));
  return function guardedLookup(
    hostname: string,
    options: dns.LookupOptions | number | LookupCallback,
    callback?: LookupCallback,
  ): void {
    const cb = (typeof options === "function" ? options : callback) as LookupCallback;
    const o: dns.LookupOptions =
      typeof options === "object" ? options : typeof options === "number" ? { family: options } : {};
    resolve(hostname, { ...o, all: true }, (err, addresses) => {
      if (err) return cb(err, o.all ? [] : "");
      if (!opts.allowPrivateNetworks) {
        for (const a of addresses) {
          const reason = refusedAddressReason(a.address);
          if (reason) return cb(new WebhookDestinationBlockedError(a.address, reason), o.all ? [] : "");
        }
      }
      if (o.all) return cb(null, addresses);
      const first = addresses[0];
      if (!first) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
      cb(null, first.address, first.family);
    });
  };
}
