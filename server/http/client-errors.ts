// Requests Node's HTTP parser refuses never reach Express; they still get the error shape of the
// spec instead of Node's bare status line.
import { randomUUID } from "node:crypto";
import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { components } from "../../generated/api.ts";
import { STATUS_OF } from "./errors.ts";

type WireError = components["schemas"]["Error"];

function errorFor(code: string | undefined): WireError {
  const base = { success: false as const, details: [], request_id: randomUUID() };
  if (code === "HPE_HEADER_OVERFLOW") {
    return { ...base, code: "headers_too_large", message: "The request line and headers are larger than 16 KB." };
  }
  if (code === "HPE_INVALID_METHOD") {
    return {
      ...base,
      code: "validation_failed",
      message: "The request method is not an HTTP method this service knows.",
      details: [{ path: "/method", message: "unknown method", code: "method" }],
    };
  }
  return { ...base, code: "validation_failed", message: "The request is not valid HTTP." };
}

export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    // A reset peer or a timed-out connection has no one to answer.
    if (err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable)
      return void socket.destroy();
    const error = errorFor(err.code);
    const status = STATUS_OF[error.code];
    const body = JSON.stringify(error);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${error.request_id}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
