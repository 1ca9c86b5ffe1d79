// Request bodies, read once the operation is known: an operation without a request body refuses
// one, and one with a body gets it as UTF-8 JSON with every check that JSON.parse does not make.
import { isUtf8 } from "node:buffer";
import type { NextFunction, Request, RequestHandler } from "express";
import { AppError, invalid, type ErrorDetail } from "../shared/errors.ts";
import { checkParsed, findDuplicateKeys, mayHaveDuplicateKeys } from "./json-text.ts";
import { matchedOperation, type Res } from "./express.ts";
import { hasBodyBytes, readRawBody } from "./body-reader.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
// us-ascii is a subset of UTF-8; every other charset (utf-16, latin1, ...) would be decoded into other text.
const CHARSETS = new Set(["utf-8", "utf8", "us-ascii"]);

/** Refused before the body is read: answer now and close, rather than wait for bytes nobody will use. */
function refuseUnread(res: Res, err: AppError): never {
  res.setHeader("Connection", "close");
  throw err;
}

/** Decides from the headers and the matched operation whether a body may be read at all. */
function admitBody(req: Request, res: Res, next: NextFunction) {
  if (!hasBodyBytes(req)) return next();
  if (!matchedOperation(req)?.requestBody) {
    // A JSON body is read all the same: `{}` from a client that always sends one is harmless.
    if (!req.is("application/json") || Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES)
      refuseUnread(res, noBodyAllowed());
    return next();
  }
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
    refuseUnread(res, new AppError("payload_too_large", "The request body is larger than 1 MB."));
  }
  if (!req.is("application/json"))
    refuseUnread(res, new AppError("unsupported_media_type", "Send the body as application/json."));
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset !== undefined && !CHARSETS.has(charset)) {
    refuseUnread(res, new AppError("unsupported_media_type", `Send the body as UTF-8 JSON, not ${charset}.`));
  }
  next();
}

const noBodyAllowed = () =>
  invalid([{ path: "/body", message: "this operation takes no request body", code: "not_allowed" }]);

/** Each request's body bytes, kept beside the parsed body for the handlers that check a signature over them. */
const rawBodies = new WeakMap<Request, Buffer>();
export const rawBodyOf = (req: Request): Buffer | undefined => rawBodies.get(req);

/** Parses the raw bytes as strict UTF-8 JSON and applies the checks of json-text.ts. */
function parseJson(req: Request, _res: Res, next: NextFunction) {
  const raw: unknown = req.body;
  if (Buffer.isBuffer(raw)) rawBodies.set(req, raw);
  const text = Buffer.isBuffer(raw) ? decodeUtf8(raw) : "";
  if (!/\S/.test(text)) {
    // Without this the validator lets an absent body through (or calls it a media type problem).
    if ((matchedOperation(req)?.requestBody as { required?: boolean } | undefined)?.required) {
      throw invalid([{ path: "/body", message: "a JSON request body is required", code: "required" }]);
    }
    req.body = undefined;
    return next();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(
      [{ path: "/body", message: `malformed JSON: ${(err as Error).message}`, code: "json" }],
      "The request body is not valid JSON.",
    );
  }
  const { details, keys, colonsInStrings } = checkParsed(value, "/body");
  if (details.length === 0 && mayHaveDuplicateKeys(text, keys, colonsInStrings))
    details.push(...findDuplicateKeys(text, "/body"));
  if (details.length) throw invalid(details);
  if (!matchedOperation(req)?.requestBody && hasContent(value)) throw noBodyAllowed();
  req.body = value;
  next();
}

function decodeUtf8(raw: Buffer): string {
  if (!isUtf8(raw))
    throw invalid(
      [{ path: "/body", message: "is not valid UTF-8", code: "encoding" }],
      "The request body is not UTF-8 text.",
    );
  return raw.toString("utf8").replace(/^\uFEFF/, "");
}

const hasContent = (v: unknown) =>
  Array.isArray(v) ? v.length > 0 : v !== null && typeof v === "object" ? Object.keys(v).length > 0 : true;

/**
 * Whether a body may be read at all (413/415, or 400 for a body an operation does not take), from the headers
 * and the matched operation alone: before authentication, so that a request that cannot succeed costs no key
 * derivation.
 */
export const admitJsonBody: RequestHandler = admitBody;

/** The body stage of the pipeline, once the caller and its role are known (admitJsonBody ran before). */
export function readJsonBody(): RequestHandler[] {
  return [readRawBody(MAX_BODY_BYTES), parseJson];
}

/** Query values are never stored, but they reach SQL: NUL is refused there as in bodies. */
export function checkQuery(req: Request, _res: Res, next: NextFunction) {
  // Only a percent-escape puts NUL into a query value (node's parser refuses a raw one in the request line).
  if (!req.originalUrl.includes("%00")) return next();
  const details: ErrorDetail[] = [];
  for (const [k, v] of Object.entries(req.query)) {
    for (const s of Array.isArray(v) ? v : [v]) {
      if (typeof s === "string" && s.includes("\u0000"))
        details.push({ path: `/query/${k}`, message: "must not contain the NUL character (\\u0000)", code: "nul" });
    }
  }
  if (details.length) throw invalid(details);
  next();
}
