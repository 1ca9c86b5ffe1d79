// The real server behind a strict and a lenient Prism proxy (see prism.ts and inbound.contract.test.ts), with the
// shared ContractRecorder over the implemented operations under some path prefixes, and accounts whose clients
// go through either proxy.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { BASE_PATH } from "../../server/app.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { implemented } from "../helpers/spec.ts";
import { specOperations, startPrismProxy, type ContractExpectation, type PrismProxy } from "./prism.ts";
import { ContractRecorder, type Result } from "./recording.ts";

type S = components["schemas"];

export interface Account {
  username: string;
  strict: LogisticsClient;
  lenient: LogisticsClient;
}

export function contractHarness(prefixes: string[]) {
  const operations = prefixes.flatMap((p) => specOperations(p)).filter((o) => implemented.has(o.operationId));
  const rec = new ContractRecorder(operations);
  let srv: TestServer | undefined;
  let strict: PrismProxy | undefined;
  let lenient: PrismProxy | undefined;
  let seq = 0;

  return {
    operations,
    server: () => srv!,
    async start(): Promise<void> {
      srv = await startTestServer();
      const proxies = await workerProxies();
      proxies.relayTo(srv.origin);
      ({ strict, lenient } = proxies);
    },
    async stop(): Promise<void> {
      (await shared)?.relayTo(undefined);
      await srv?.close();
    },
    // Arrow functions: the test files destructure these from the harness.
    account: async (role: "merchant" | "operator"): Promise<Account> => {
      const id = `contract-${role}-${++seq}.example.com`;
      const secret = `secret-${id}`;
      await provisionAccount(srv!.handle.db, role, id, secret);
      const username = `${role === "merchant" ? "M" : "W"}-${id}`;
      return { username, strict: rec.via(strict!, username, secret), lenient: rec.via(lenient!, username, secret) };
    },
    /** A client through one of the proxies that sends these headers (a portal session's Cookie and X-CSRF-Token). */
    withHeaders: (proxy: "strict" | "lenient", headers: Record<string, string>) =>
      rec.via((proxy === "strict" ? strict : lenient)!, undefined, undefined, headers),
    /** A client through one of the proxies with any credentials (or none): for the refused ones. */
    client: (proxy: "strict" | "lenient", username?: string, secret?: string) =>
      rec.via((proxy === "strict" ? strict : lenient)!, username, secret),
    conforms: <R extends Result>(result: R, expected: number | ContractExpectation) => rec.conforms(result, expected),
    /** `conforms`, the shared error body with this code, and `details` naming each of `paths`. */
    fails: (result: Result, expected: number | ContractExpectation, code: string, paths: string[] = []): S["Error"] => {
      const error = rec.fails(result, expected, code);
      for (const p of paths)
        expect(
          error.details.map((d) => d.path),
          JSON.stringify(error.details),
        ).toContain(p);
      return error;
    },
    refusedByPrism: (result: Result, status: 401 | 422, violation: string) =>
      rec.refusedByPrism(result, status, violation),
    expectComplete: (required: Record<string, number[]>) =>
      rec.expectComplete(required, `under ${prefixes.join(", ")}`),
  };
}

interface WorkerProxies {
  strict: PrismProxy;
  lenient: PrismProxy;
  /** Where the relay behind both proxies forwards: the current file's server (undefined: none, 502). */
  relayTo(origin: string | undefined): void;
}

let shared: Promise<WorkerProxies> | undefined;

/**
 * One strict and one lenient Prism per test worker, shared by the contract files it runs (a worker runs one file at
 * a time; vitest.config.ts isolate: false keeps this module from file to file): each Prism start cost ~1.8 processor
 * seconds and seconds of wall time, two a file. Prism's upstream is fixed at its start, so both forward to a relay
 * in this process, which forwards every request as it came (method, path, headers, body; Host made the server's)
 * to the current file's server, and its answer back as it came. Prism ends with the worker (prism.ts: its watchdog
 * and the exit handler).
 */
function workerProxies(): Promise<WorkerProxies> {
  shared ??= startWorkerProxies().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

async function startWorkerProxies(): Promise<WorkerProxies> {
  let target: URL | undefined;
  const relay: Server = createServer((req, res) => {
    if (!target) return void res.writeHead(502).end("no contract test server");
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  // The worker may end while Prism holds a connection open: the relay never keeps it alive.
  relay.unref();
  const upstream = `http://127.0.0.1:${(relay.address() as AddressInfo).port}${BASE_PATH}`;
  const [s, l] = await Promise.allSettled([
    startPrismProxy({ upstream, errors: true }),
    startPrismProxy({ upstream, errors: false }),
  ]);
  if (s.status === "rejected" || l.status === "rejected") {
    await Promise.all([s.status === "fulfilled" && s.value.close(), l.status === "fulfilled" && l.value.close()]);
    relay.close();
    throw s.status === "rejected" ? s.reason : (l as PromiseRejectedResult).reason;
  }
  return {
    strict: s.value,
    lenient: l.value,
    relayTo: (origin) => void (target = origin === undefined ? undefined : new URL(origin)),
  };
}
