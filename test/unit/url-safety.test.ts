import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import {
  BLOCKED_CODE,
  checkWebhookUrl,
  createGuardedLookup,
  refusedAddressReason,
  type Resolver,
} from "../../server/webhooks/url-safety.ts";

describe("checkWebhookUrl", () => {
  it.each([
    "https://shop.example.com/hooks/logistics?token=abc",
    "http://shop.example.com:8080/x",
    "http://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://bücher.example/hook", // IDN, punycoded by the parser
    "http://[64:ff9b::808:808]/", // NAT64 of a public address
    "http://[2002:808:808::1]/", // 6to4 of a public address
  ])("accepts %s", (url) => {
    expect(checkWebhookUrl(url)).toEqual([]);
  });

  it.each([
    ["http://10.0.0.1/", "private"],
    ["http://172.16.5.4/", "private"],
    ["http://192.168.1.1/", "private"],
    ["http://127.0.0.1:3000/", "loopback"],
    ["http://2130706433/", "loopback"], // decimal
    ["http://0177.0.0.1/", "loopback"], // octal
    ["http://0x7f.1/", "loopback"], // hex, short form
    ["http://127.1/", "loopback"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://[::1]/", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://168.63.129.16/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://169.254.10.1/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[fc00::1]/", "unique local"],
    ["http://[fd12:3456::1]/", "unique local"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://240.0.0.1/", "reserved"],
    ["http://192.0.2.1/", "reserved"],
    ["http://198.18.0.1/", "reserved"],
    ["http://[2001:db8::1]/", "reserved"],
    ["http://[2001::1]/", "reserved"], // Teredo
    ["http://[::7f00:1]/", "reserved"], // deprecated IPv4-compatible form
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["http://[::ffff:8.8.8.8]/", "IPv4-mapped"],
    ["http://[::ffff:0:a00:1]/", "IPv4-translated"],
    ["http://[64:ff9b::10.0.0.1]/", "embedding 10.0.0.1"],
    ["http://[2002:7f00:1::]/", "embedding 127.0.0.1"],
    ["http://localhost:3000/", "loopback host"],
    ["http://LOCALHOST./", "loopback host"],
    ["http://api.localhost/", "loopback host"],
    ["http://metadata.google.internal/computeMetadata/v1/", "cloud metadata"],
    ["http://metadata.goog/", "cloud metadata"],
    ["http://db.internal/", "local network name"],
    ["http://printer.local/", "local network name"],
    ["http://intranet/", "fully qualified"],
  ])("refuses %s (%s)", (url, reason) => {
    const problems = checkWebhookUrl(url);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "/body/url", code: "destination_not_allowed" });
    expect(problems[0]!.message).toContain(reason);
  });

  it.each([
    ["ftp://example.com/x", "unsupported_scheme"],
    ["file:///etc/passwd", "unsupported_scheme"],
    ["javascript:alert(1)", "unsupported_scheme"],
    ["https://user:pw@example.com/", "credentials_in_url"],
    ["https://:pw@example.com/", "credentials_in_url"],
    ["https://user@example.com/", "credentials_in_url"],
    ["not a url", "invalid_url"],
    ["", "invalid_url"],
    ["/relative/path", "invalid_url"],
  ])("refuses %s with %s", (url, code) => {
    expect(checkWebhookUrl(url).map((p) => p.code)).toContain(code);
  });

  it("never echoes the URL's query or credentials", () => {
    for (const url of ["https://u:hunter2@example.com/?token=s3cr3t", "http://127.0.0.1/?token=s3cr3t"]) {
      const text = JSON.stringify(checkWebhookUrl(url));
      expect(text).not.toContain("s3cr3t");
      expect(text).not.toContain("hunter2");
    }
  });

  it("allowPrivateNetworks lifts the destination checks only", () => {
    const allow = { allowPrivateNetworks: true };
    expect(checkWebhookUrl("http://127.0.0.1:3000/hook", allow)).toEqual([]);
    expect(checkWebhookUrl("http://localhost:3000/hook", allow)).toEqual([]);
    expect(checkWebhookUrl("http://[::1]:3000/hook", allow)).toEqual([]);
    expect(checkWebhookUrl("ftp://127.0.0.1/", allow)[0]?.code).toBe("unsupported_scheme");
    expect(checkWebhookUrl("http://a:b@127.0.0.1/", allow)[0]?.code).toBe("credentials_in_url");
  });

  it("takes another detail path", () => {
    expect(checkWebhookUrl("http://10.0.0.1/", {}, "/body/endpoints/0/url")[0]?.path).toBe("/body/endpoints/0/url");
  });
});

describe("refusedAddressReason", () => {
  it("passes public unicast addresses and refuses the rest", () => {
    expect(refusedAddressReason("93.184.216.34")).toBeUndefined();
    expect(refusedAddressReason("2606:4700:4700::1111")).toBeUndefined();
    expect(refusedAddressReason("127.0.0.1")).toMatch(/loopback/);
    expect(refusedAddressReason("fe80::1%eth0")).toMatch(/link-local/);
    expect(refusedAddressReason("not-an-ip")).toMatch(/not a valid IP/);
  });
});

describe("createGuardedLookup", () => {
  const fakeResolver = (...answers: LookupAddress[][]): Resolver => {
    let call = 0;
    return (_host, _opts, cb) => setImmediate(() => cb(null, answers[Math.min(call++, answers.length - 1)]!));
  };
  const lookupOnce = (lookup: ReturnType<typeof createGuardedLookup>, host: string, all = false) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, { all }, (err, address, family) => resolve({ err, address, family })),
    );

  it("answers like dns.lookup for public addresses, in both forms", async () => {
    const lookup = createGuardedLookup({
      resolve: fakeResolver([
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800::1", family: 6 },
      ]),
    });
    expect(await lookupOnce(lookup, "shop.example.com")).toEqual({ err: null, address: "93.184.216.34", family: 4 });
    const all = await lookupOnce(lookup, "shop.example.com", true);
    expect(all.address).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800::1", family: 6 },
    ]);
  });

  it("refuses when any resolved address is refused", async () => {
    const lookup = createGuardedLookup({
      resolve: fakeResolver([
        { address: "93.184.216.34", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ]),
    });
    const { err } = await lookupOnce(lookup, "shop.example.com", true);
    expect(err?.code).toBe(BLOCKED_CODE);
    expect(err?.message).toMatch(/10\.1\.2\.3 is a private address/);
  });

  it("checks every resolution, so a name rebinding to an internal address is refused", async () => {
    const lookup = createGuardedLookup({
      resolve: fakeResolver([{ address: "93.184.216.34", family: 4 }], [{ address: "169.254.169.254", family: 4 }]),
    });
    expect((await lookupOnce(lookup, "rebind.example.com")).err).toBeNull();
    expect((await lookupOnce(lookup, "rebind.example.com")).err?.code).toBe(BLOCKED_CODE);
  });

  it("passes private addresses when allowed, and resolver errors through", async () => {
    const allowed = createGuardedLookup({
      allowPrivateNetworks: true,
      resolve: fakeResolver([{ address: "127.0.0.1", family: 4 }]),
    });
    expect(await lookupOnce(allowed, "localhost")).toEqual({ err: null, address: "127.0.0.1", family: 4 });
    const failing = createGuardedLookup({
      resolve: (_h, _o, cb) => setImmediate(() => cb(Object.assign(new Error("nope"), { code: "ENOTFOUND" }), [])),
    });
    expect((await lookupOnce(failing, "nx.example.com")).err?.code).toBe("ENOTFOUND");
  });

  it("with the system resolver, refuses localhost and literal loopback addresses", async () => {
    const lookup = createGuardedLookup();
    expect((await lookupOnce(lookup, "localhost")).err?.code).toBe(BLOCKED_CODE);
    expect((await lookupOnce(lookup, "127.0.0.1")).err?.code).toBe(BLOCKED_CODE);
    expect((await lookupOnce(lookup, "::1", true)).err?.code).toBe(BLOCKED_CODE);
  });
});
