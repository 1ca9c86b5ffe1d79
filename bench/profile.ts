// Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function and per package or
// project file, counted from the samples that fall inside the measured windows (not start-up or idle gaps).
// Alone: `npx tsx bench/profile.ts <file.cpuprofile>` summarises the whole profile.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  pct: number;
}
export interface ProfileSummary {
  file: string;
  samples: number;
  ms: number;
  /** True when the whole profile was counted: no windows given, or none matched a sample. */
  whole: boolean;
  groups: Share[];
  functions: (Share & { group: string; location: string })[];
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** node_modules/<package>, a project file, a file of node itself, PGlite's wasm or V8's pseudo-frames. */
export function groupOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native code)";
  if (url.startsWith("node:")) return url;
  if (url.startsWith("wasm:")) return "wasm";
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  const parts = file.split("/node_modules/");
  if (parts.length > 1) {
    const segs = parts.at(-1)!.split("/");
    return segs[0]!.startsWith("@") ? `${segs[0]}/${segs[1]}` : segs[0]!;
  }
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
}

// tsx compiles project files to one line, so their line numbers say nothing: the function name must do.
function location(url: string, line: number): string {
  if (!url || url.startsWith("node:")) return "";
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  if (file.includes("/node_modules/")) return `${file.split("/node_modules/").at(-1)}:${line + 1}`;
  return file.endsWith(".ts") ? "" : `${file}:${line + 1}`;
}

export function summarise(file: string, windows: [number, number][] = [], top = 25): ProfileSummary {
  const p = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const interval = p.samples.length ? (p.endTime - p.startTime) / p.samples.length / 1000 : 0;
  const counts = new Map<number, number>();
  const count = (filter: boolean) => {
    counts.clear();
    let t = p.startTime;
    let n = 0;
    p.samples.forEach((id, i) => {
      t += p.timeDeltas[i] ?? 0;
      if (filter && !windows.some(([a, b]) => t >= a && t <= b)) return;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      n++;
    });
    return n;
  };
  let total = windows.length ? count(true) : 0;
  const whole = total === 0;
  if (whole) total = count(false);

  const byNode = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Native code (writev, hashing, …) is named after its nearest caller outside node's own files: HTTP
  // responses and database writes both end in writev, and only the caller says which one it is.
  const caller = (id: number): string => {
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const { url } = byNode.get(at)!;
      if (url && !url.startsWith("node:")) return groupOf(url, "");
    }
    return "";
  };
  const groups = new Map<string, number>();
  const functions = new Map<string, { name: string; group: string; location: string; n: number }>();
  for (const [id, n] of counts) {
    const f = byNode.get(id)!;
    const group = groupOf(f.url, f.functionName);
    groups.set(group, (groups.get(group) ?? 0) + n);
    const via = group === "(native code)" ? caller(id) : "";
    const key = `${f.functionName}\0${f.url}\0${f.lineNumber}\0${via}`;
    const name = (f.functionName || "(anonymous)") + (via ? ` <- ${via}` : "");
    const entry = functions.get(key) ?? { name, group, location: location(f.url, f.lineNumber), n: 0 };
    entry.n += n;
    functions.set(key, entry);
  }
  const share = (n: number) => ({ ms: n * interval, pct: total ? (100 * n) / total : 0 });
  return {
    file,
    samples: total,
    ms: total * interval,
    whole,
    groups: [...groups].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, ...share(n) })),
    functions: [...functions.values()]
      .sort((a, b) => b.n - a.n)
      .slice(0, top)
      .map(({ n, ...f }) => ({ ...f, ...share(n) })),
  };
}

export function formatSummary(title: string, s: ProfileSummary, topGroups = 20): string {
  const pct = (x: number) => `${x.toFixed(1).padStart(5)}%`;
  const lines = [
    `${title}: ${s.samples} samples, ${(s.ms / 1000).toFixed(1)} s of CPU profile${s.whole ? " (the whole profile, start-up and idle included)" : " in the measured windows"}`,
    `  self time by package / file:`,
    ...s.groups.slice(0, topGroups).map((g) => `  ${pct(g.pct)}  ${g.name}`),
    `  top ${s.functions.length} functions by self time:`,
    ...s.functions.map((f) =>
      `  ${pct(f.pct)}  ${f.name.slice(0, 44).padEnd(44)} ${f.group.padEnd(28)} ${f.location}`.trimEnd(),
    ),
  ];
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of process.argv.slice(2)) console.log(formatSummary(file, summarise(file)));
}
