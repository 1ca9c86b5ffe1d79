// One flood in a process of its own (forked by flood.ts): builds its requests, says "ready", sends them for
// the given seconds once told "go", and answers with what it got.
import { FLOODS, type FloodName } from "./floods.ts";
import { loop, percentile } from "./load.ts";
import type { Context } from "./context.ts";

export interface FloodGot {
  requests: number;
  statuses: Record<string, number>;
  cutOff: number;
  errors: number;
  sentBytes: number;
  receivedBytes: number;
  p50: number;
  seconds: number;
}

const { flood, ctx, seconds } = JSON.parse(process.argv[2]!) as { flood: FloodName; ctx: Context; seconds: number };
const load = FLOODS[flood].load(ctx);
process.once("message", () => {
  void loop({ api: ctx.api, seconds, ...load }).then((r) => {
    const got: FloodGot = {
      requests: r.latencies.length - r.cutOff,
      statuses: r.statuses,
      cutOff: r.cutOff,
      errors: r.errors,
      sentBytes: r.sentBytes,
      receivedBytes: r.receivedBytes,
      p50: percentile(r.latencies, 50),
      seconds: r.seconds,
    };
    process.send!(got, () => process.exit(0));
  });
});
process.send!("ready");
