// Every JSON answer of the app goes out through res.json: as Express sends it (the same bytes and headers), without
// the steps such an answer does not need. Express parses the content type again to add its charset, copies a text of
// 1,000 characters or more into a Buffer before writing it, and checks freshness, which only an answer with an ETag
// can have. Installed on the app's response, so that the spec's check of an answer (validator.ts, which wraps
// res.json) runs before it as before. bench/levers.md section 21 has the measurements.
import type { Express, Response } from "express";
import { answerText } from "../shared/answer-texts.ts";

/** `compareTexts`: an answer's own text is compared with JSON.stringify's (answer-texts.ts); on where every answer is checked. */
export function sendJsonDirectly(app: Express, compareTexts = true): void {
  const expressJson = app.response.json;
  app.response.json = function json(this: Response, body?: unknown): Response {
    // Express's own cases: an ETag (a 304 for a matching If-None-Match), a status without a body, no body at all,
    // and a content type set by the handler (Express adds its charset).
    if (
      body === undefined ||
      this.statusCode === 204 ||
      this.statusCode === 304 ||
      this.hasHeader("ETag") ||
      this.hasHeader("Content-Type")
    )
      return expressJson.call(this, body);
    // JSON.stringify, or the text the code that built the answer makes of it (shared/answer-texts.ts).
    const text = answerText(body, compareTexts);
    this.setHeader("Content-Type", "application/json; charset=utf-8");
    this.setHeader("Content-Length", Buffer.byteLength(text));
    // A HEAD request (handled as its GET, pipeline.ts): node sends the headers and leaves the body out.
    this.end(text);
    return this;
  } as Express["response"]["json"];
}
