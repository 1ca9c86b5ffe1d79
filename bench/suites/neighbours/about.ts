// What docs/benchmarks.md says about `npm run bench:neighbours`, from the floods' own table, so that the text
// follows the bench. Its figures are not part of `npm run bench` (a full run does not flood the server).
import { FLOOD_NAMES, FLOODS } from "./floods.ts";
import { probeLoad, PROBES } from "./probes.ts";

export function neighboursSection(): string[] {
  return [
    "",
    "## Noisy neighbours",
    "",
    "`npm run bench:neighbours [-- FLOOD...]` (not part of `npm run bench`) starts the real server as `npm start` does, in its default configuration (limits included: unlike the other suites, `RATE_LIMIT_PER_MINUTE` keeps its default), on PGlite, or on a scratch database of the PostgreSQL of `DATABASE_URL`. It runs the floods below one at a time, each on a server process of its own (so that nothing the last one queued carries over); for each, other merchants' requests are measured for `BENCH_SECONDS` (10) alone, after 2 s of warm-up, then for as long again while the flood runs from a process of its own. The figure is their p50 under the flood over their p50 alone, both from the same run on the same machine; the goal is **p50 under flood <= 2x quiet** (and all answered 2xx). The p99 ratio and what the flood got (its answers by status) are printed beside it. `BENCH_FLOODS=explain,chunked` or `npm run bench:neighbours -- explain chunked` runs some of them; `BENCH_PROFILE=1` adds the server's CPU profile during each flood.",
    "",
    "| flood | the noisy side | measured meanwhile |",
    "|---|---|---|",
    ...FLOOD_NAMES.map((name) => {
      const f = FLOODS[name];
      const probes = f.probes.map((p) => `${PROBES[p].title} (${probeLoad(p)})`).join("; ");
      return `| ${name} | ${f.what.replace(/\|/g, "\\|")} | ${probes} |`;
    }),
    "",
    "Measured meanwhile: the quiet merchant (the demo merchant) GETs one of its inbound shipments or its shipping options for 00100 (10 pickup points) 50 times a second (within its request limit); the sign-ins of its portal user (email and password) and the cold API key checks (a GET of the shipping settings by one of 600 merchants whose key has not been checked yet, so that no verified key is cached and each check derives the key, as a merchant's first request to a process does) are also sent at a fixed rate whatever the answers, so that a stalled server shows in each one's latency rather than in fewer requests. A request still unanswered 5 s after its phase ends counts with the time it waited, and the goal also needs every quiet request answered 2xx.",
  ];
}
