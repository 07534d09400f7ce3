// Loopback-only admission (server/observer/loopbackEndpoint.ts): what counts as a loopback
// address, and an admission table driven by an injected resolver (deterministic), plus one real
// resolution of `localhost`. Every resolved address must be loopback; 0.0.0.0 is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { admitLoopbackEndpoint, isLoopbackAddress, type LookupAll, type ResolvedAddress } from "../../server/observer/loopbackEndpoint";

test("loopback addresses: 127.0.0.0/8, ::1 and IPv4-mapped 127.x in any spelling; nothing else", () => {
  for (const address of ["127.0.0.1", "127.255.255.254", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::FFFF:127.9.8.7", "::ffff:7f00:1", "0:0:0:0:0:ffff:7f00:0001"]) {
    assert.equal(isLoopbackAddress(address), true, address);
  }
  for (const address of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "192.168.1.10", "::2", "::ffff:10.0.0.1", "::127.0.0.1", "fe80::1", "2001:db8::1", "localhost", "", "127.0.0.1.nip.io", "127.0.0"]) {
    assert.equal(isLoopbackAddress(address), false, address);
  }
});

/** A resolver that knows a fixed table and records what it was asked. */
function table(entries: Record<string, readonly ResolvedAddress[]>): { lookup: LookupAll; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (hostname) => {
      asked.push(hostname);
      const found = entries[hostname];
      if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return found;
    },
  };
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

const RESOLVER = table({
  localhost: [v4("127.0.0.1"), v6("::1")],
  "model.local": [v4("127.0.0.2")],
  "rebound.test": [v4("127.0.0.1"), v4("203.0.113.7")],
  "remote.test": [v4("203.0.113.7")],
  "mapped.test": [v6("::ffff:127.0.0.1")],
  "empty.test": [],
  "garbage.test": [v4("not-an-address")],
});

test("admission table", async () => {
  const cases: [string, string | null][] = [
    ["http://127.0.0.1:11434/v1", null],
    ["http://127.3.4.5/v1", null],
    ["https://[::1]:8443/v1", null],
    ["http://[::ffff:127.0.0.1]:8080", null],
    ["http://0x7f.1:8080/v1", null], // the URL parser spells it 127.0.0.1
    ["http://localhost:8080/v1", null],
    ["http://LOCALHOST:8080/v1", null],
    ["http://model.local/v1", null],
    ["http://mapped.test/v1", null],
    ["http://0.0.0.0:11434/v1", "observer.local-endpoint-not-loopback"],
    ["http://[::]:11434/v1", "observer.local-endpoint-not-loopback"],
    ["http://10.0.0.5:11434/v1", "observer.local-endpoint-not-loopback"],
    ["http://remote.test/v1", "observer.local-endpoint-not-loopback"],
    ["http://rebound.test/v1", "observer.local-endpoint-not-loopback"],
    ["https://api.openai.com/v1", "observer.local-endpoint-invalid"], // unknown to this resolver
    ["http://empty.test/v1", "observer.local-endpoint-invalid"],
    ["http://garbage.test/v1", "observer.local-endpoint-invalid"],
    ["ftp://127.0.0.1/v1", "observer.local-endpoint-invalid"],
    ["file:///tmp/socket", "observer.local-endpoint-invalid"],
    ["http://user:pw@127.0.0.1/v1", "observer.local-endpoint-invalid"],
    ["http://127.0.0.1/v1?key=1", "observer.local-endpoint-invalid"],
    ["http://127.0.0.1/v1#x", "observer.local-endpoint-invalid"],
    ["127.0.0.1:11434", "observer.local-endpoint-invalid"],
    ["not a url", "observer.local-endpoint-invalid"],
    ["", "observer.local-endpoint-invalid"],
    [" http://127.0.0.1/v1", "observer.local-endpoint-invalid"],
  ];
  for (const [endpoint, code] of cases) {
    const admission = await admitLoopbackEndpoint(endpoint, RESOLVER.lookup);
    assert.equal(admission.ok ? null : admission.code, code, endpoint);
  }
});

test("an IP literal is not resolved; a name is resolved once and its addresses are pinned", async () => {
  const resolver = table({ localhost: [v6("::1"), v4("127.0.0.1")] });
  const literal = await admitLoopbackEndpoint("http://127.0.0.1:9000/v1/", resolver.lookup);
  assert.deepEqual(resolver.asked, []);
  assert.ok(literal.ok);
  assert.deepEqual(
    { endpoint: literal.endpoint.endpoint, hostname: literal.endpoint.hostname, port: literal.endpoint.port, basePath: literal.endpoint.basePath, addresses: literal.endpoint.addresses },
    { endpoint: "http://127.0.0.1:9000/v1", hostname: "127.0.0.1", port: 9000, basePath: "/v1", addresses: [v4("127.0.0.1")] },
  );
  const named = await admitLoopbackEndpoint("https://localhost", resolver.lookup);
  assert.deepEqual(resolver.asked, ["localhost"]);
  assert.ok(named.ok);
  assert.deepEqual([named.endpoint.port, named.endpoint.basePath, named.endpoint.addresses], [443, "", [v6("::1"), v4("127.0.0.1")]]);
  const bracketed = await admitLoopbackEndpoint("http://[0:0:0:0:0:0:0:1]/", resolver.lookup);
  assert.ok(bracketed.ok);
  assert.deepEqual([bracketed.endpoint.hostname, bracketed.endpoint.port, bracketed.endpoint.addresses], ["::1", 80, [v6("::1")]]);
});

test("the refusal names the non-loopback address it found", async () => {
  const admission = await admitLoopbackEndpoint("http://rebound.test/v1", RESOLVER.lookup);
  assert.equal(admission.ok, false);
  assert.match(admission.ok ? "" : admission.message, /203\.0\.113\.7/u);
});

test("the real resolver: localhost resolves to loopback addresses only and is admitted", async () => {
  const admission = await admitLoopbackEndpoint("http://localhost:11434/v1");
  assert.ok(admission.ok, admission.ok ? "" : admission.message);
  assert.ok(admission.endpoint.addresses.length > 0);
  for (const entry of admission.endpoint.addresses) assert.equal(isLoopbackAddress(entry.address), true, entry.address);
});
