// One HTTP attempt of a webhook delivery: POST with a total timeout, no redirects, a bounded read of the answer,
// the connect-time address guard, and keep-alive connections reused across deliveries. Never throws: the
// outcome is what the delivery records (status, error, duration), and never holds a credential or the URL.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { performance } from "node:perf_hooks";
import type { FailureClass } from "./tables.ts";
import { BLOCKED_CODE, createGuardedLookup, refusedAddressReason } from "./url-safety.ts";
import { retryAfterMs } from "../shared/retry-after.ts";

export interface SendWebhookRequest {
  url: string;
  /** Signature and other headers; Content-Type (application/json), Content-Length and User-Agent are set here. */
  headers?: Record<string, string>;
  /** The exact bytes that were signed. */
  body: string | Uint8Array;
  /** Whole attempt: DNS, connect, request and response. */
  timeoutMs: number;
  allowPrivateNetworks?: boolean;
  /** The endpoint's optional HTTP Basic credentials, sent as Authorization. */
  basicAuth?: { username: string; password: string };
}

export interface SendWebhookResult {
  /** Only a 2xx answer is a success; the body does not matter. */
  ok: boolean;
  /** The status the receiver answered; absent when it did not answer (timeout, connection error, refused). */
  status?: number;
  durationMs: number;
  /** Short, for `last_error`; holds no URL, query or credential. Absent on success. */
  error?: string;
  /** What kind of failure, for a person to act on (the spec's WebhookFailureClass). Absent on success. */
  failureClass?: FailureClass;
  /** The start of the answer's body (printable text, at most EXCERPT_CHARS), for troubleshooting. */
  responseExcerpt?: string;
  /** A 429 or 503 answer's Retry-After, in milliseconds from now (RFC 9110: delta-seconds or an HTTP date). */
  retryAfterMs?: number;
}

/** Bytes of a response body read at most; a longer answer is cut and its connection closed. */
export const RESPONSE_LIMIT = 4096;
export const EXCERPT_CHARS = 200;
const USER_AGENT = "logistics-api-webhooks/1";

// One keep-alive pool per protocol and guard mode (a socket opened without the guard must never serve a
// guarded delivery). Thousands of deliveries a second to one receiver ride on a few dozen connections.
// No cap on sockets per host here: the dispatcher's limits (per endpoint, per merchant, in all) decide
// how many requests run, and a per-host cap would queue one merchant's delivery behind another
// merchant's hanging requests whenever both use the same receiving host (a shared platform).
const agents = new Map<string, http.Agent>();
function agentFor(protocol: "http:" | "https:", allowPrivateNetworks: boolean): http.Agent {
  const key = `${protocol}${allowPrivateNetworks}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxFreeSockets: 64, lookup: createGuardedLookup({ allowPrivateNetworks }) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the pooled connections (at shutdown, after the last delivery). */
export function closeWebhookAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

class AttemptTimeout extends Error {
  readonly code = "EWEBHOOKTIMEOUT";
}

interface Answer {
  status: number;
  excerpt: string;
  retryAfter?: string;
}

export async function sendWebhook(req: SendWebhookRequest): Promise<SendWebhookResult> {
  const started = performance.now();
  const result = (r: Omit<SendWebhookResult, "durationMs">): SendWebhookResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });

  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return result({ ok: false, error: "invalid URL", failureClass: "destination_refused" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return result({
      ok: false,
      error: "unsupported URL scheme (http or https only)",
      failureClass: "destination_refused",
    });
  if (url.username || url.password)
    return result({ ok: false, error: "credentials in the URL are not allowed", failureClass: "destination_refused" });
  // The connect-time lookup guards names; net connects to IP literals without a lookup, so check those here.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!req.allowPrivateNetworks && net.isIP(host)) {
    const reason = refusedAddressReason(host);
    if (reason)
      return result({
        ok: false,
        error: `destination refused: ${host} is ${reason}`,
        failureClass: "destination_refused",
      });
  }

  const deadline = started + req.timeoutMs;
  for (let tryNo = 1; ; tryNo++) {
    try {
      const answer = await attempt(url, host, req, deadline);
      const ok = answer.status >= 200 && answer.status < 300;
      const excerpt = answer.excerpt ? { responseExcerpt: answer.excerpt } : {};
      if (ok) return result({ ok, status: answer.status, ...excerpt });
      const note = answer.status >= 300 && answer.status < 400 ? " (redirects are not followed)" : "";
      const asked = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.retryAfter) : undefined;
      return result({
        ok,
        status: answer.status,
        error: `HTTP ${answer.status} from endpoint${note}`,
        failureClass: classOfStatus(answer.status),
        ...excerpt,
        ...(asked !== undefined && { retryAfterMs: asked }),
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
      // A pooled connection the receiver closed just as we reused it: the documented case for one fresh retry.
      if (
        tryNo === 1 &&
        e.reusedSocket &&
        (e.code === "ECONNRESET" || e.code === "EPIPE") &&
        performance.now() < deadline
      )
        continue;
      return result({ ok: false, error: describeError(e, req.timeoutMs), failureClass: classOfError(e) });
    }
  }
}

function attempt(url: URL, host: string, req: SendWebhookRequest, deadline: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const protocol = url.protocol as "http:" | "https:";
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      ...req.headers,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(req.body)),
    };
    if (req.basicAuth)
      headers.authorization = `Basic ${Buffer.from(`${req.basicAuth.username}:${req.basicAuth.password}`).toString("base64")}`;

    let status: number | undefined;
    let retryAfter: string | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Once the status is known the answer counts, even if its body was cut, slow or broken.
      if (status !== undefined) resolve({ status, excerpt: excerptOf(Buffer.concat(chunks)), retryAfter });
      else reject(Object.assign(err ?? new Error("no response"), { reusedSocket: request.reusedSocket }));
    };

    const request = (protocol === "https:" ? https : http).request(
      {
        protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers,
        agent: agentFor(protocol, Boolean(req.allowPrivateNetworks)),
      },
      (res) => {
        status = res.statusCode ?? 0;
        retryAfter = res.headers["retry-after"];
        res.on("data", (chunk: Buffer) => {
          if (received < RESPONSE_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_LIMIT - received));
          received += chunk.length;
          // Not worth reading further: closing the connection is cheaper than draining a large answer.
          if (received > RESPONSE_LIMIT) {
            res.destroy();
            finish();
          }
        });
        res.on("end", () => finish());
        res.on("error", (e) => finish(e));
        res.on("close", () => finish());
      },
    );
    timer = setTimeout(() => request.destroy(new AttemptTimeout()), Math.max(0, deadline - performance.now()));
    request.on("error", (e) => finish(e));
    request.end(req.body);
  });
}

function excerptOf(body: Buffer): string {
  // Printable text only: the excerpt may end up in an API response or a log line.
  return body
    .toString("utf8")
    .replace(/[^\P{C}\n\t]/gu, "")
    .replace(/\uFFFD+$/u, "")
    .slice(0, EXCERPT_CHARS);
}

function classOfStatus(status: number): FailureClass {
  if (status === 410) return "gone";
  if (status >= 300 && status < 400) return "redirect";
  if (status >= 400 && status < 500) return "http_4xx";
  return status >= 500 ? "http_5xx" : "invalid_response";
}

const CLASS_OF_CODE: Record<string, FailureClass> = {
  ECONNREFUSED: "refused",
  ENOTFOUND: "dns",
  EAI_AGAIN: "dns",
  ETIMEDOUT: "timeout",
  ECONNRESET: "connection",
  EPIPE: "connection",
  EHOSTUNREACH: "connection",
  ENETUNREACH: "connection",
};

function classOfError(err: NodeJS.ErrnoException): FailureClass {
  if (err instanceof AttemptTimeout) return "timeout";
  if (err.code === BLOCKED_CODE) return "destination_refused";
  const known = err.code && CLASS_OF_CODE[err.code];
  if (known) return known;
  if (err.code?.startsWith("HPE_")) return "invalid_response";
  if (err.code && /CERT|TLS|SSL/.test(err.code)) return "tls";
  return "connection";
}

const ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the endpoint",
  EPIPE: "connection closed by the endpoint",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "DNS lookup failed (temporary)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  HPE_INVALID_CONSTANT: "invalid HTTP response",
};

/** A short message without the URL or any credential: node's own messages may contain the host and path. */
function describeError(err: NodeJS.ErrnoException, timeoutMs: number): string {
  if (err instanceof AttemptTimeout)
    return `timeout after ${timeoutMs >= 1000 ? `${+(timeoutMs / 1000).toFixed(1)} s` : `${timeoutMs} ms`}`;
  if (err.code === BLOCKED_CODE) return `destination refused: ${err.message}`;
  const known = err.code && ERRORS[err.code];
  if (known) return known;
  if (err.code?.startsWith("HPE_")) return `invalid HTTP response (${err.code})`;
  if (err.code && /CERT|TLS|SSL/.test(err.code)) return `TLS error (${err.code})`;
  return `connection failed${err.code ? ` (${err.code})` : ""}`;
}
