// npm run mock:webhook -- <url> <event_type> [--secret whsec_...] [--event-id <id>]: posts the spec's example of one
// webhook event to a partner's receiver, signed like the service signs it (Standard Webhooks), so that a
// receiver and its signature check can be tested before there are credentials. Without --secret it signs
// with the secret of the spec's create-endpoint example, which is what the mock answers on creation.
// Every send is a new event with an id of its own, as the service's are; --event-id repeats an earlier one, to
// test that the receiver ignores an event it has already processed (delivery is at least once).
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { webhookHeaders } from "../client/webhooks.ts";
import { newId } from "../server/shared/ids.ts";
import { specDocument } from "../server/shared/spec-document.ts";

interface WebhookEvent {
  event_id: string;
}
interface Spec {
  webhooks: Record<
    string,
    {
      post: {
        requestBody: { content: { "application/json": { example: WebhookEvent | WebhookEvent[] } } };
      };
    }
  >;
  paths: Record<
    string,
    { post: { responses: Record<string, { content: { "application/json": { example: { secret: string } } } }> } }
  >;
}

const spec = specDocument() as Spec;
const types = Object.keys(spec.webhooks);
const usage =
  `usage: npm run mock:webhook -- <url> <event_type> [--secret whsec_...] [--event-id <id printed by an earlier send>]\n` +
  `event types: ${types.join(", ")}`;

const { values, positionals } = parseArgs({
  options: { secret: { type: "string" }, "event-id": { type: "string" }, help: { type: "boolean" } },
  allowPositionals: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const [url, type] = positionals;
if (positionals.length !== 2 || !url || !type) fail("give a URL and an event type");
if (!types.includes(type)) fail(`unknown event type ${JSON.stringify(type)}`);
let target: URL;
try {
  target = new URL(url);
} catch {
  fail(`not a URL: ${JSON.stringify(url)}`);
}
if (target.protocol !== "http:" && target.protocol !== "https:") fail("the URL must be http or https");
const secret =
  values.secret ??
  spec.paths["/webhook_endpoints/_create"]!.post.responses["201"]!.content["application/json"].example.secret;
if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) fail("--secret must look like whsec_<base64>");

const repeat = values["event-id"];
if (repeat !== undefined && !/^[0-9a-f]{24}$/.test(repeat))
  fail("--event-id must be an event id: 24 lowercase hex digits");

const example = spec.webhooks[type]!.post.requestBody.content["application/json"].example;
if (repeat !== undefined && Array.isArray(example))
  fail("--event-id repeats one event: give a single event type, not a batch");
// A new event each time, as the service's are (or the repeated one); a batch's events each get an id of their own.
const event = Array.isArray(example)
  ? example.map((e) => ({ ...e, event_id: newId() }))
  : { ...example, event_id: repeat ?? newId() };
const body = JSON.stringify(event);
// A batch is signed under an id of its own, as the service does; a single event under its event_id.
const id = Array.isArray(event) ? randomBytes(12).toString("hex") : event.event_id;
const headers = {
  "content-type": "application/json",
  "user-agent": "logistics-api-mock-webhook",
  ...webhookHeaders(secret, id, body),
};
try {
  const res = await fetch(target, {
    method: "POST",
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  const text = (await res.text()).slice(0, 200);
  console.log(`${type} ${id} -> ${target.href}: HTTP ${res.status}${text ? ` ${text}` : ""}`);
  // As the service does: any 2xx acknowledges; anything else would be retried.
  process.exit(res.ok ? 0 : 1);
} catch (error) {
  console.error(
    `${type} -> ${target.href}: ${error instanceof Error ? `${error.message}${error.cause ? ` (${String((error.cause as Error).message ?? error.cause)})` : ""}` : String(error)}`,
  );
  process.exit(1);
}

function fail(message: string): never {
  console.error(`mock:webhook: ${message}\n${usage}`);
  process.exit(2);
}
