// HTTP as bytes on a socket, for what fetch cannot send: repeated headers, unknown methods, lying
// Content-Length, oversized header blocks; and an answer's exact bytes by node's own client.
import http from "node:http";
import net from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from sending to the end of the response. */
  ms: number;
}

/** Sends `head` (CRLF line endings added) and `body`, reads one response. Resolves when the response is complete. */
export function rawRequest(origin: string, lines: string[], body = "", timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms: ${data.toString("latin1").slice(0, 200)}`));
    }, timeoutMs);
    const tryParse = (final: boolean) => {
      const text = data.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return final ? fail(new Error(`incomplete response: ${text.slice(0, 200)}`)) : undefined;
      const [statusLine, ...headerLines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of headerLines)
        headers[l.slice(0, l.indexOf(":")).toLowerCase()] = l.slice(l.indexOf(":") + 1).trim();
      const rest = data.subarray(Buffer.byteLength(text.slice(0, end + 4), "latin1"));
      const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
      if (length !== undefined ? rest.length < length : !final) return undefined;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        status: Number(statusLine!.split(" ")[1]),
        headers,
        body: rest.subarray(0, length).toString("utf8"),
        ms: Date.now() - started,
      });
    };
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      tryParse(false);
    });
    socket.on("end", () => tryParse(true));
    socket.on("error", (err) => (data.length ? tryParse(true) : fail(err)));
    socket.write(lines.join("\r\n") + "\r\n\r\n");
    if (body) socket.write(body);
  });
}

export interface AnswerBytes {
  status: number;
  /** Every header but Date. */
  headers: Record<string, unknown>;
  /** The body's bytes, in base64. */
  body: string;
}

/**
 * One answer's status, headers and bytes, to compare two servers' answers: by node's own client, since fetch adds
 * Cache-Control to a conditional request (and then no answer is fresh) and decodes what it reads.
 */
export function answerBytes(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<AnswerBytes> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const { date: _date, ...headers } = res.headers;
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks).toString("base64") });
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
