// Prism's mocker, in process: it answers with the spec's example for a request the server's own checks have
// already accepted (app.ts), so its own request validation, security check and error bodies are off.
// `Prefer: code=...` and `Prefer: example=...` choose another documented answer, as with `prism mock`.
import { createLogger } from "@stoplight/prism-core";
import {
  createInstance,
  getHttpOperationsFromSpec,
  type IHttpMockConfig,
  type IHttpRequest,
} from "@stoplight/prism-http";
import { invalid } from "../../server/shared/errors.ts";
import { SPEC_PATH } from "../../server/shared/paths.ts";

export interface MockRequest {
  method: string;
  /** The path below the base path, as the spec writes it. */
  path: string;
  body: unknown;
  /** `Prefer: code=...`: the documented status to answer with. */
  code?: number;
  /** `Prefer: example=...` or the example chosen for the request (follow.ts): the example's key. */
  example?: string;
}

export interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Mocker = (request: MockRequest) => Promise<MockAnswer>;

export async function prismMocker(): Promise<Mocker> {
  const operations = await getHttpOperationsFromSpec(SPEC_PATH);
  const config: IHttpMockConfig = {
    mock: { dynamic: false },
    checkSecurity: false,
    validateRequest: false,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
  const prism = createInstance(config, { logger: createLogger("MOCK", { level: "silent" }) });
  return async (r) => {
    const result = await prism.request(
      {
        method: r.method.toLowerCase() as IHttpRequest["method"],
        url: { path: r.path },
        // Only what chooses the answer: Prism negotiates on Accept, which the server ignores.
        headers: r.body === undefined ? {} : { "content-type": "application/json" },
        body: r.body,
      },
      operations,
      { ...config, mock: { dynamic: false, code: r.code, exampleKey: r.example } },
    )();
    if (result._tag === "Left") {
      // The operation has no such status or example: the caller's Prefer header asked for what is not there.
      const detail = (result.left as { detail?: string }).detail ?? result.left.message;
      throw invalid(
        [{ path: "/headers/prefer", message: detail, code: "prefer" }],
        "The Prefer header asks for an answer the spec does not document.",
      );
    }
    const { statusCode, headers, body } = result.right.output;
    return { status: statusCode, headers: { ...headers }, body };
  };
}

/** `code=404` and `example=kaarina` of a Prefer header (RFC 7240); other preferences are not the mock's. */
export function preferences(header: string | undefined): { code?: number; example?: string } {
  const out: { code?: number; example?: string } = {};
  for (const part of (header ?? "").split(/[,;]/)) {
    const m = /^\s*(code|example)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!m) continue;
    if (m[1]!.toLowerCase() === "example") out.example = m[2]!;
    else if (/^[1-5]\d\d$/.test(m[2]!)) out.code = Number(m[2]);
    else
      throw invalid([
        { path: "/headers/prefer", message: "code must be an HTTP status, e.g. code=404", code: "prefer" },
      ]);
  }
  return out;
}
