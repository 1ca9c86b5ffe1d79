// Validates delivered webhook bodies against the spec's `webhooks` section (JSON Schema 2020-12).
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { spec } from "./spec.ts";

const doc = spec as {
  components: unknown;
  webhooks: Record<
    string,
    { post: { requestBody: { content: { "application/json": { schema: { $ref: string } } } } } }
  >;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const ROOT = "https://spec.local/openapi.json";
ajv.addSchema({ $id: ROOT, components: doc.components });

/** The problems of `body` as the request of webhook entry `name` (an event type, or `batch`); empty when valid. */
export function webhookBodyProblems(name: string, body: unknown): string[] {
  const entry = doc.webhooks[name];
  if (!entry) return [`no webhook entry ${name} in the spec`];
  const ref = entry.post.requestBody.content["application/json"].schema.$ref;
  const validate = ajv.getSchema(`${ROOT}${ref}`);
  if (!validate) return [`cannot resolve ${ref}`];
  return validate(body)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}
