// Loopback-only admission of a local model endpoint (design/observer.md §1.6). Local mode sends
// session material to a model; it may only leave the process for this machine. So the endpoint
// is judged by where it actually connects, not by what its name says:
//
// - The URL must be `http:` or `https:`, without credentials (they would sit in the policy file
//   on disk), query or fragment (an OpenAI-compatible base URL has none).
// - The host is resolved (every address, `dns.lookup` with `all`) and EVERY address must be a
//   loopback address: 127.0.0.0/8, ::1, or an IPv4-mapped ::ffff:127.x.y.z. A `localhost` label
//   is not trusted by itself: a hosts file or resolver can map it anywhere.
// - The admitted endpoint carries those addresses, and the client connects to them and only to
//   them (no second resolution between the check and the connect), so a name that resolves to
//   127.0.0.1 when checked and to a remote host a moment later (DNS rebinding) gains nothing.
//
// Difference from the reference: it admits `0.0.0.0` by its label. Docket does not: 0.0.0.0 is
// "any address", not loopback, and what a connection to it reaches depends on the platform.
import dns from "node:dns";
import net from "node:net";

export type EndpointRefusalCode = "observer.local-endpoint-invalid" | "observer.local-endpoint-not-loopback";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a host name resolves to (the shape of `dns.promises.lookup(name, {all: true})`). */
export type LookupAll = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Held only by values this file makes, so an endpoint cannot be declared admitted elsewhere. */
const admittedBrand: unique symbol = Symbol("admitted loopback endpoint");

/** An endpoint that passed admission; only `admitLoopbackEndpoint` makes one. */
export interface AdmittedEndpoint {
  readonly [admittedBrand]: true;
  /** The endpoint as configured, without a trailing slash. */
  readonly endpoint: string;
  readonly protocol: "http:" | "https:";
  /** The URL's host name, brackets removed (what the Host header and TLS name use). */
  readonly hostname: string;
  readonly port: number;
  /** The URL's path without a trailing slash ("" for the root). */
  readonly basePath: string;
  /** The loopback addresses it resolved to when admitted, in resolver order; connections use only these. */
  readonly addresses: readonly ResolvedAddress[];
}

export type EndpointAdmission = { readonly ok: true; readonly endpoint: AdmittedEndpoint } | { readonly ok: false; readonly code: EndpointRefusalCode; readonly message: string };

/** Long enough for any real base URL; a policy file cannot smuggle a megabyte through here. */
export const ENDPOINT_LENGTH_LIMIT = 2_000;

export const systemLookup: LookupAll = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

const MAPPED_LOOPBACK = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/u;

/** The WHATWG URL parser's canonical IPv6 text (`0:0::1` → `::1`, `::ffff:127.0.0.1` → `::ffff:7f00:1`). */
function canonicalIpv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped 127.0.0.0/8 (in any spelling); false for anything else, 0.0.0.0 included. */
export function isLoopbackAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return address.split(".")[0] === "127";
  if (family !== 6) return false;
  const canonical = canonicalIpv6(address);
  return canonical === "::1" || (canonical !== null && MAPPED_LOOPBACK.test(canonical));
}

function invalid(message: string): EndpointAdmission {
  return { ok: false, code: "observer.local-endpoint-invalid", message };
}

function notLoopback(message: string): EndpointAdmission {
  return { ok: false, code: "observer.local-endpoint-not-loopback", message };
}

function defaultPort(protocol: "http:" | "https:"): number {
  return protocol === "https:" ? 443 : 80;
}

function resolvedFamily(address: string): 4 | 6 | null {
  const family = net.isIP(address);
  return family === 4 || family === 6 ? family : null;
}

/**
 * Admits `endpoint` when it is an http(s) URL whose host resolves only to loopback addresses.
 * `lookup` is the system resolver unless a test injects one.
 */
export async function admitLoopbackEndpoint(endpoint: string, lookup: LookupAll = systemLookup): Promise<EndpointAdmission> {
  if (endpoint.length === 0 || endpoint.length > ENDPOINT_LENGTH_LIMIT || endpoint.trim() !== endpoint) return invalid(`a local model endpoint is a URL of 1 to ${ENDPOINT_LENGTH_LIMIT} characters without surrounding spaces`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return invalid(`${endpoint} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return invalid(`a local model endpoint uses http or https, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") return invalid("a local model endpoint carries no credentials (they would be stored in the policy file)");
  if (url.search !== "" || url.hash !== "") return invalid("a local model endpoint is a base URL without query or fragment");
  const hostname = url.hostname.replace(/^\[|\]$/gu, "").toLowerCase();
  if (hostname === "") return invalid(`${endpoint} names no host`);
  let addresses: readonly ResolvedAddress[];
  const literal = resolvedFamily(hostname);
  if (literal !== null) {
    addresses = [{ address: hostname, family: literal }];
  } else {
    try {
      addresses = await lookup(hostname);
    } catch (error) {
      return invalid(`${hostname} does not resolve: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (addresses.length === 0) return invalid(`${hostname} resolves to no address`);
  }
  for (const entry of addresses) {
    if (resolvedFamily(entry.address) === null) return invalid(`${hostname} resolved to ${entry.address}, which is not an IP address`);
  }
  const remote = addresses.filter((entry) => !isLoopbackAddress(entry.address));
  if (remote.length > 0) {
    return notLoopback(`${hostname} resolves to ${remote.map((entry) => entry.address).join(", ")}, not only to this machine's loopback addresses; local mode sends session material only to a loopback endpoint`);
  }
  const protocol = url.protocol;
  const basePath = url.pathname.replace(/\/+$/u, "");
  return {
    ok: true,
    endpoint: {
      [admittedBrand]: true,
      endpoint: endpoint.replace(/\/+$/u, ""),
      protocol,
      hostname,
      port: url.port === "" ? defaultPort(protocol) : Number(url.port),
      basePath,
      addresses: addresses.map((entry) => ({ address: entry.address, family: resolvedFamily(entry.address) ?? entry.family })),
    },
  };
}
