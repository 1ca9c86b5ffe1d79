import type { NextFunction, Request } from "express";
import { invalid, type ErrorDetail } from "../shared/errors.ts";
import { matchedOperation, type Res } from "./types.ts";

/** PostgreSQL text cannot hold U+0000: refuse it up front as bad input instead of failing in SQL. */
export function rejectNulCharacters(req: Request, _res: Res, next: NextFunction) {
  const found: ErrorDetail[] = [];
  const walk = (v: unknown, path: string) => {
    if (found.length >= 20) return;
    if (typeof v === "string") {
      if (v.includes("\u0000")) found.push({ path, message: "must not contain the NUL character (\\u0000)", code: "nul" });
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}/${i}`));
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    }
  };
  walk(req.body, "/body");
  for (const [k, v] of Object.entries(req.query)) walk(v, `/query/${k}`);
  if (found.length) throw invalid(found);
  next();
}

/** An operation without a request body refuses one with content, so nothing sent is silently ignored. */
export function rejectUnexpectedBody(req: Request, _res: Res, next: NextFunction) {
  const op = matchedOperation(req);
  const body: unknown = req.body;
  const hasContent = Array.isArray(body) ? body.length > 0 : body !== null && typeof body === "object" ? Object.keys(body).length > 0 : body !== undefined;
  if (op && !op.requestBody && hasContent) {
    throw invalid([{ path: "/body", message: "this operation takes no request body", code: "not_allowed" }]);
  }
  next();
}
