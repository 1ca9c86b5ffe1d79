// Reads a request body into one Buffer as its bytes arrive, so that what they cost is known while they come:
// the size limit holds for a chunked body as for one with Content-Length, and each chunk is charged to the
// caller's body-bytes budget (res.locals.meterBody) before the next is read.
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request } from "express";
import { AppError, invalid } from "../shared/errors.ts";
import type { Res } from "./express.ts";

const DECODERS: Record<string, (buf: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

const tooLarge = (max: number) =>
  new AppError("payload_too_large", `The request body is larger than ${max / (1024 * 1024)} MB.`);

/** Collects the body; rejects with the refusal (413, 429) as soon as it applies, leaving the rest unread. */
function collect(req: Request, res: Res, max: number): Promise<Buffer> {
  const meter = res.locals.meterBody;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      req.off("data", onData).off("end", onEnd).off("error", settle).off("close", onClose);
      if (err === undefined) return resolve(Buffer.concat(chunks, size));
      // The rest of the body is not wanted: answer now and close, rather than wait for it.
      req.pause();
      res.setHeader("Connection", "close");
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return settle(tooLarge(max));
      chunks.push(chunk);
      if (!meter) return;
      // No next chunk until this one is paid for: a shared count may take a moment to read.
      req.pause();
      meter(chunk.length).then(
        () => void (!settled && req.resume()),
        (e: unknown) => settle(e instanceof Error ? e : new Error(String(e))),
      );
    };
    const onEnd = () => settle();
    // The client went away before the end: nobody reads the answer, but the request must end.
    const onClose = () => settle(invalid([{ path: "/body", message: "the body ended early", code: "aborted" }]));
    req.on("data", onData).on("end", onEnd).on("error", settle).on("close", onClose);
  });
}

/** Whether the request says a body follows (a length above 0, or chunks). */
export const hasBodyBytes = (req: Request) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

/**
 * The body as raw bytes in `req.body` (decompressed when sent with a Content-Encoding of gzip, deflate or br),
 * at most `max` bytes on the wire and after decompression.
 */
export function readRawBody(max: number) {
  return async (req: Request, res: Res, next: NextFunction) => {
    if (!hasBodyBytes(req)) return next();
    const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
    const decode = DECODERS[encoding];
    if (!decode && encoding !== "identity") {
      res.setHeader("Connection", "close");
      throw new AppError(
        "unsupported_media_type",
        `Send the body uncompressed, or as gzip, deflate or br, not ${encoding}.`,
      );
    }
    const raw = await collect(req, res, max);
    if (!decode) {
      req.body = raw;
      return next();
    }
    try {
      req.body = await decode(raw, { maxOutputLength: max });
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(max);
      throw invalid(
        [{ path: "/body", message: `is not valid ${encoding} data`, code: "encoding" }],
        "The request body cannot be decompressed.",
      );
    }
    next();
  };
}
