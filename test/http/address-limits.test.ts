// Every request counts against a limit (issue 48 item 2, issue 55 item 5, issue 58 item 4): requests that no verified
// caller answers for (a path that matches no operation, no or wrong credentials, CORS preflights) have a bucket per
// client address (as TRUST_PROXY tells it), apart from the merchants at that address; a pipelining connection's
// requests take turns; and a publishable key's minute is shared out per address, so strangers cannot spend it.
import net from "node:net";
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { loadDemo } from "../helpers/shipping.ts";

const PER_ADDRESS = 6;
const KEY = 60;
// Above the 5 requests a minute that an address new to a spent key may still make (rate-limit.ts NEWCOMER_REQUESTS).
const SHARE = 8;
const SHOP = "https://shop.address-limits.example";

let srv: TestServer;
let m: LogisticsClient;
let auth: string;
let key: string;
useTestServer(
  async (s) => {
    srv = s;
    await loadDemo(srv);
    m = await srv.merchant("address-limits.example.com");
    auth = `Basic ${Buffer.from("M-address-limits.example.com:secret-address-limits.example.com").toString("base64")}`;
    key = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
  },
  {
    trustProxy: ["loopback"],
    anonymousRequestsPerAddress: PER_ADDRESS,
    publishableKeyRequestsPerMinute: KEY,
    publishableAddressRequestsPerMinute: 100,
    publishableKeySharePerAddress: SHARE,
  },
);

// Each test's callers at addresses of their own (TEST-NET-3), forwarded by the loopback proxy TRUST_PROXY names.
let next = 0;
const newAddress = () => `203.0.113.${++next}`;

interface Answer {
  status: number;
  code?: string;
  retryAfter: number | null;
  ms: number;
}

async function send(address: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const r = await fetch(srv.origin + path, {
    ...init,
    headers: { "x-forwarded-for": address, ...init.headers },
  });
  const text = await r.text();
  const body = text ? (JSON.parse(text) as { code?: string }) : {};
  const retry = r.headers.get("retry-after");
  return {
    status: r.status,
    code: body.code,
    retryAfter: retry === null ? null : Number(retry),
    ms: performance.now() - started,
  };
}

const statuses = (answers: Answer[]) => answers.map((a) => a.status);
async function inTurn(n: number, make: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}
const expectRefused = (a: Answer) => {
  expect(a.status).toBe(429);
  expect(a.code).toBe("rate_limited");
  expect(a.retryAfter).toBeGreaterThan(0);
};

describe("When one address sends requests no verified caller answers for", () => {
  it("paths that match no operation are 404 up to the address's minute, then 429 rate_limited; nothing stored changes", async () => {
    const a = newAddress();
    const before = await srv.snapshot();
    const answers = await inTurn(PER_ADDRESS + 2, () => send(a, "/2015-01-01/no_such_thing"));
    expect(statuses(answers)).toEqual([...Array(PER_ADDRESS).fill(404), 429, 429]);
    expect(answers[0]!.code).toBe("not_found");
    expectRefused(answers[PER_ADDRESS]!);
    expect(await srv.snapshot()).toEqual(before);
    // Another address has its own bucket.
    expect((await send(newAddress(), "/2015-01-01/no_such_thing")).status).toBe(404);
  });

  it("paths outside the API that are no page and no file count in the same bucket: 404, then 429, pages refused too", async () => {
    const a = newAddress();
    const answers = await inTurn(PER_ADDRESS + 1, (i) =>
      send(a, i % 2 ? "/no_such_thing" : "/2015-01-01/no_such_thing"),
    );
    expect(statuses(answers)).toEqual([...Array(PER_ADDRESS).fill(404), 429]);
    expect(answers[1]!.code).toBe("not_found");
    expectRefused(answers[PER_ADDRESS]!);
    // The address's minute is spent: the site's pages are refused to it before any router looks...
    expectRefused(await send(a, "/"));
    expectRefused(await send(a, "/no_such_thing"));
    // ...and answered to every other address; health checks are never counted.
    expect((await send(newAddress(), "/")).status).toBe(200);
    expect((await send(a, "/healthz")).status).toBe(200);
  });

  it("a merchant behind the same address is not throttled by them: its credentials count for it", async () => {
    const a = newAddress();
    await inTurn(PER_ADDRESS + 1, () => send(a, "/2015-01-01/no_such_thing"));
    expectRefused(await send(a, "/2015-01-01/inbound_shipments"));
    const own = await send(a, "/2015-01-01/inbound_shipments", { headers: { authorization: auth } });
    expect(own.status).toBe(200);
  });

  it("no credentials (401), wrong credentials (401) and a method the resource lacks (405) share the address's bucket", async () => {
    const a = newAddress();
    const answers = [
      await send(a, "/2015-01-01/inbound_shipments"),
      await send(a, "/2015-01-01/inbound_shipments"),
      await send(a, "/2015-01-01/inbound_shipments", { headers: { authorization: "Basic bm9ib2R5Om5vdGhpbmc=" } }),
      await send(a, "/2015-01-01/inbound_shipments", { method: "DELETE" }),
      await send(a, "/2015-01-01/no_such_thing"),
      await send(a, "/2015-01-01/inbound_shipments", { method: "PATCH" }),
    ];
    expect(statuses(answers)).toEqual([401, 401, 401, 405, 404, 405]);
    expect(answers.map((x) => x.code)).toEqual([
      "unauthorized",
      "unauthorized",
      "unauthorized",
      "method_not_allowed",
      "not_found",
      "method_not_allowed",
    ]);
    for (const refused of [
      await send(a, "/2015-01-01/inbound_shipments"),
      await send(a, "/2015-01-01/inbound_shipments", { method: "DELETE" }),
      await send(a, "/2015-01-01/inbound_shipments", { headers: { authorization: "Basic bm9ib2R5Om5vdGhpbmc=" } }),
    ])
      expectRefused(refused);
  });

  it("credentials on a wrong path name nobody: charged to the address too, and 429 past its minute", async () => {
    const a = newAddress();
    const answers = await inTurn(PER_ADDRESS + 1, () =>
      send(a, "/2015-01-01/no_such_thing", { headers: { authorization: auth } }),
    );
    expect(statuses(answers)).toEqual([...Array(PER_ADDRESS).fill(404), 429]);
    expectRefused(answers[PER_ADDRESS]!);
    expect((await send(a, "/2015-01-01/inbound_shipments", { headers: { authorization: auth } })).status).toBe(200);
  });

  it.each(["/2015-01-01/no_such_thing", "/no_such_thing"])(
    "a flood past the minute is paced like other refusals: past 10 a second, each waits about a second (%s)",
    async (path) => {
      const a = newAddress();
      await inTurn(PER_ADDRESS, () => send(a, path));
      // Sent at once, so that a busy machine cannot spread them over many seconds: at most ten a second are answered
      // at once, so 21 within two seconds hold at least one.
      const refused = await Promise.all(Array.from({ length: 21 }, () => send(a, path)));
      for (const r of refused) expectRefused(r);
      // Held ones wait about a second longer than those answered at once, however slow the machine.
      const ms = refused.map((r) => r.ms).sort((x, y) => x - y);
      expect(ms[20]! - ms[0]!).toBeGreaterThanOrEqual(900);
    },
  );

  it("CORS preflights are counted per address: from a key's origin or any other (204), then 429", async () => {
    const preflight = (a: string, origin: string) =>
      send(a, "/2015-01-01/shipping_options", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
    const a = newAddress();
    const listed = await inTurn(PER_ADDRESS + 1, () => preflight(a, SHOP));
    expect(statuses(listed)).toEqual([...Array(PER_ADDRESS).fill(204), 429]);
    expectRefused(listed[PER_ADDRESS]!);
    const b = newAddress();
    const unlisted = await inTurn(PER_ADDRESS + 1, (i) => preflight(b, `https://made-up-${i}.example`));
    expect(statuses(unlisted)).toEqual([...Array(PER_ADDRESS).fill(204), 429]);
    expectRefused(unlisted[PER_ADDRESS]!);
  });
});

/** Sends every request on one connection at once (HTTP/1.1 pipelining) and reads the answers in order. */
function pipelined(address: string, paths: string[]): Promise<{ status: number; code: string }[]> {
  const { hostname, port } = new URL(srv.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const answers: { status: number; code: string }[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${answers.length} of ${paths.length} answers within 30 s`));
    }, 30_000);
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = data.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (data.length < end + 4 + length) return;
        const body = JSON.parse(data.subarray(end + 4, end + 4 + length).toString("utf8")) as { code: string };
        answers.push({ status: Number(head.split(" ")[1]), code: body.code });
        data = data.subarray(end + 4 + length);
        if (answers.length === paths.length) {
          clearTimeout(timer);
          socket.destroy();
          resolve(answers);
        }
      }
    });
    socket.on("error", reject);
    socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${address}\r\n\r\n`).join(""));
  });
}

describe("When one connection pipelines many requests", () => {
  it("all are answered in order: 404 up to the address's minute, then 429 rate_limited, held like other refusals", async () => {
    const a = newAddress();
    const started = performance.now();
    const answers = await pipelined(a, Array(24).fill("/2015-01-01/no_such_thing"));
    expect(answers.map((x) => x.status)).toEqual([
      ...Array(PER_ADDRESS).fill(404),
      ...Array(24 - PER_ADDRESS).fill(429),
    ]);
    expect(answers.at(-1)!.code).toBe("rate_limited");
    // 18 refusals: ten at once, the rest held for a second (a connection's requests run a few at a time).
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    // The merchant at that address is served meanwhile.
    expect((await send(a, "/2015-01-01/inbound_shipments", { headers: { authorization: auth } })).status).toBe(200);
  });
});

describe("When strangers at several addresses use a shop's publishable key", () => {
  const options = (address: string) =>
    send(address, "/2015-01-01/shipping_options?postalcode=20780&country=FI", {
      headers: { authorization: `Bearer ${key}`, origin: SHOP },
    });

  it("each address gets its share of the key's minute (429 past it), and a shopper at another address is answered 200", async () => {
    const flood = Array.from({ length: 6 }, newAddress);
    const got = await Promise.all(flood.map((a) => inTurn(SHARE + 2, () => options(a))));
    for (const answers of got) {
      expect(statuses(answers)).toEqual([...Array(SHARE).fill(200), 429, 429]);
      expectRefused(answers[SHARE]!);
    }
    const shopper = await options(newAddress());
    expect(shopper.status).toBe(200);
  });

  it("once many addresses have spent the key's minute anyway, a new shopper's first requests are still answered", async () => {
    // 6 addresses and a shopper above took 49 of the key's 60; two more addresses take the other 11, within their
    // shares. (The flood below once took them itself, and then which address passed the key's 60th request
    // depended on how the four addresses' turns interleaved: the sixth of one that ran ahead still passed.)
    for (const [n, a] of [
      [6, newAddress()],
      [5, newAddress()],
    ] as const)
      expect(statuses(await inTurn(n, () => options(a)))).toEqual(Array(n).fill(200));
    const flood = Array.from({ length: 4 }, newAddress);
    const got = await Promise.all(flood.map((a) => inTurn(SHARE, () => options(a))));
    // The key's minute is spent: each address's first 5 still pass (newcomers), its further ones are the key's 429.
    for (const answers of got) expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expectRefused(got[0]![7]!);
    const shopper = newAddress();
    const first = await inTurn(3, () => options(shopper));
    expect(statuses(first)).toEqual([200, 200, 200]);
  });
});
