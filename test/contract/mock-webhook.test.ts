// npm run mock:webhook: every send is a new event with an id of its own (a receiver that de-duplicates by
// event_id, as we advise, processes each), signed with the mock's example secret; --event-id repeats one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookEvents } from "../../client/webhooks.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { loadSpec } from "../fuzz/spec-model.ts";
import { run } from "../process/helpers.ts";

const { doc } = loadSpec();
const SECRET = doc.paths["/webhook_endpoints/_create"].post.responses["201"].content["application/json"].example.secret;
const example = (type: string) => doc.webhooks[type].post.requestBody.content["application/json"].example;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respond = () => 204;
});
afterAll(() => receiver?.close());

async function send(...args: string[]) {
  const p = run("tools/mock-webhook.ts", args, {});
  return { code: await p.exited, output: p.output() };
}

/** The events of the n-th request the receiver got, verified as a receiver verifies them, and its webhook-id. */
function delivered(n: number) {
  const got = receiver.received[n]!;
  const events = verifyWebhookEvents([SECRET], got.headers, Buffer.from(got.body));
  return { events, webhookId: got.headers["webhook-id"] };
}

describe("npm run mock:webhook", () => {
  it("sends a new event id every time, and the repeated one with --event-id", async () => {
    const type = "inbound_shipment.items_arrived";
    const [first, second] = await Promise.all([send(receiver.url(), type), send(receiver.url(), type)]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    await receiver.waitFor(2);
    const ids = [0, 1].map((n) => delivered(n).events[0]!.event_id);
    expect(ids[0]).not.toBe(ids[1]);
    for (const [n, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(id).not.toBe(example(type).event_id);
      // A single event is signed under its own id, as the service signs it.
      expect(delivered(n).webhookId).toBe(id);
      expect(first.output + second.output).toContain(`${type} ${id} -> ${receiver.url()}: HTTP 204`);
    }
    // Apart from its id, the event is the spec's example.
    const { event_id: _id, ...rest } = delivered(0).events[0]!;
    const { event_id: _exampleId, ...exampleRest } = example(type);
    expect(rest).toEqual(exampleRest);

    const again = await send(receiver.url(), type, "--event-id", ids[0]!);
    expect(again.code, again.output).toBe(0);
    await receiver.waitFor(3);
    expect(delivered(2).events[0]!.event_id).toBe(ids[0]);
    expect(delivered(2).webhookId).toBe(ids[0]);
  });

  it("gives each event of a batch its own new id, the batch an id of its own", async () => {
    const before = receiver.received.length;
    const sent = await send(receiver.url(), "batch");
    expect(sent.code, sent.output).toBe(0);
    await receiver.waitFor(before + 1);
    const { events, webhookId } = delivered(before);
    const ids = events.map((e) => e.event_id);
    expect(ids).toHaveLength(example("batch").length);
    expect(new Set([...ids, webhookId]).size).toBe(ids.length + 1);
    for (const e of example("batch")) expect(ids).not.toContain(e.event_id);
  });

  it.each([
    [["--event-id", "not-an-id"], "--event-id must be an event id"],
    [["--event-id", "5a41e2f3a4b5c6d7e8f9a0c4", "batch"], "--event-id repeats one event"],
  ])("refuses %j without sending (exit 2)", async (args, message) => {
    const before = receiver.received.length;
    const batch = args.includes("batch");
    const rest = args.filter((a) => a !== "batch");
    const refused = await send(receiver.url(), batch ? "batch" : "webhook.test", ...rest);
    expect(refused.code, refused.output).toBe(2);
    expect(refused.output).toContain(message);
    expect(receiver.received.length).toBe(before);
  });
});
