// A preload for a server under a bench: what each request overlapped on the server, for the open-loop tail
// (bench/levers.md sections 17, 27, 32, 47). Not part of the service; load it in the measured servers only:
//
//   BENCH_SERVER_NODE_OPTIONS="--import ./bench/micro/tail-trace.mjs" BENCH_SERVER_TAIL_TRACE_DIR=/tmp/trace \
//     BENCH_ROUNDS=2 npm run bench -- shipping --target postgres
//   npx tsx bench/micro/tail-trace-report.ts /tmp/trace/*.jsonl
//
// Each server process (dist/server/main.js or server/main.ts; any other process loading it is left alone) writes
// TAIL_TRACE_DIR/<pid>.jsonl, one record a line, times in ms of performance.now():
//   {t:"r", s, d, u}      a request, from the server's `request` event to its response's `finish`, and its URL
//   {t:"gc", s, d, k}     a garbage collection's pause (k: 1 scavenge, 2 minor mark-compact, 4 mark-compact, 8 weak)
//   {t:"eld", s, max}     the event loop's delay over the last 50 ms when over 15 ms (monitorEventLoopDelay)
//   {t:"timer", s, d, n}  a setTimeout/setInterval/setImmediate callback that ran over 1 ms, by its function's name
//   {t:"w", s, q} {t:"d", s, n}  a write to PostgreSQL (the printable start of the message: the statement's name,
//                         its parameters, or its text) and data from it, on sockets to DATABASE_URL's port (5432)
// The records are gathered in memory and appended every 2 s and at exit.
import { appendFileSync, writeFileSync } from "node:fs";
import { setInterval } from "node:timers";
import http from "node:http";
import net from "node:net";
import { PerformanceObserver, monitorEventLoopDelay, performance } from "node:perf_hooks";

if (/[/\\](dist[/\\])?server[/\\]main\.(js|ts)$/.test(process.argv[1] ?? "")) {
  const out = `${process.env.TAIL_TRACE_DIR || "."}/${process.pid}.jsonl`;
  const at = () => +performance.now().toFixed(2);
  writeFileSync(out, JSON.stringify({ t: "start", wall: Date.now(), s: at() }) + "\n");
  let gathered = [];
  const push = (record) => gathered.push(JSON.stringify(record));
  const write = () => {
    if (gathered.length) appendFileSync(out, gathered.join("\n") + "\n");
    gathered = [];
  };
  setInterval(write, 2000).unref();
  process.on("exit", write);

  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      push({ t: "gc", s: +e.startTime.toFixed(2), d: +e.duration.toFixed(2), k: e.detail?.kind });
  }).observe({ entryTypes: ["gc"] });

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const max = delay.max / 1e6;
    if (max > 15) push({ t: "eld", s: at(), max: +max.toFixed(2) });
    delay.reset();
  }, 50).unref();

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === "request") {
      const s = performance.now();
      res.once("finish", () =>
        push({ t: "r", s: +s.toFixed(2), d: +(performance.now() - s).toFixed(2), u: req.url.slice(0, 80) }),
      );
    }
    return emit.apply(this, arguments);
  };

  const timed = (schedule) =>
    function (callback, ...rest) {
      if (typeof callback !== "function") return schedule.call(this, callback, ...rest);
      return schedule.call(
        this,
        function (...args) {
          const s = performance.now();
          try {
            return callback.apply(this, args);
          } finally {
            const d = performance.now() - s;
            if (d > 1) push({ t: "timer", s: +s.toFixed(2), d: +d.toFixed(2), n: callback.name || "anonymous" });
          }
        },
        ...rest,
      );
    };
  globalThis.setTimeout = timed(globalThis.setTimeout);
  globalThis.setInterval = timed(globalThis.setInterval);
  globalThis.setImmediate = timed(globalThis.setImmediate);

  const pgPort = Number(/:(\d+)\//.exec(process.env.DATABASE_URL ?? "")?.[1] ?? 5432);
  const socketWrite = net.Socket.prototype.write;
  net.Socket.prototype.write = function (chunk, ...rest) {
    if (this.remotePort === pgPort) {
      const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("latin1", 0, 160) : "";
      push({ t: "w", s: at(), q: text.replace(/[^\x20-\x7e]+/g, "|").slice(0, 100) });
    }
    return socketWrite.call(this, chunk, ...rest);
  };
  const socketEmit = net.Socket.prototype.emit;
  net.Socket.prototype.emit = function (event, data, ...rest) {
    if (event === "data" && this.remotePort === pgPort) push({ t: "d", s: at(), n: data?.length });
    return socketEmit.call(this, event, data, ...rest);
  };
}
