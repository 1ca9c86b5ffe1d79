// One reader per kind of setting. Each turns a variable's text into its value or into one sentence naming the
import { isIP } from "node:net";
import { parseMainKey } from "../secrets/main-keys.ts";
// variable, what it accepts and what it got, and describes itself for the docs' table, so that a message, a
// default and a documented range can never disagree.

export type Reading<T> = { value: T; problem?: undefined } | { value?: undefined; problem: string };

export interface Setting<T> {
  /** The environment variable. */
  name: string;
  /** The default, as the docs show it ("unset" when there is none). */
  shownDefault: string;
  /** What the variable accepts, as the docs show it. */
  allowed: string;
  /** What it does, for operators: one sentence. */
  meaning: string;
  /** The value of the variable's text; unset or blank gives the default. */
  read(raw: string | undefined): Reading<T>;
}

interface Common {
  name: string;
  meaning: string;
}

const code = (s: string | number) => `\`${s}\``;
const isBlank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === "";

interface NumberOptions extends Common {
  min: number;
  max: number;
  /** Named in the message and the docs: "a whole number of milliseconds". */
  unit?: "milliseconds" | "seconds" | "days" | "bytes";
  /** What 0 means, when it turns something off. */
  zero?: string;
}

/** A whole number in [min, max]; without a default, unset is undefined. */
export function wholeNumber(o: NumberOptions & { default: number }): Setting<number>;
export function wholeNumber(o: NumberOptions & { default?: undefined }): Setting<number | undefined>;
export function wholeNumber(o: NumberOptions & { default?: number }): Setting<number | undefined> {
  const unit = o.unit ? ` ${o.unit}` : "";
  const ofUnit = o.unit ? ` of ${o.unit}` : "";
  const zero = o.zero ? ` (0 = ${o.zero})` : "";
  const mib = o.unit === "bytes" && o.default && o.default % 2 ** 20 === 0 ? ` (${o.default / 2 ** 20} MiB)` : "";
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: o.default === undefined ? "unset" : `${code(o.default)}${mib}`,
    allowed: `${o.min}–${o.max}${unit}${o.zero ? `; \`0\`: ${o.zero}` : ""}`,
    read(raw) {
      if (isBlank(raw)) return { value: o.default };
      const n = Number(raw);
      if (Number.isInteger(n) && n >= o.min && n <= o.max) return { value: n };
      return { problem: `${o.name} must be a whole number${ofUnit} ${o.min}-${o.max}${zero}, got "${raw}"` };
    },
  };
}

/** true or false (also 1 or 0), in any case. */
export function flag(o: Common & { default: boolean }): Setting<boolean> {
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: code(String(o.default)),
    allowed: "`true` or `false` (`1`, `0`)",
    read(raw) {
      if (isBlank(raw)) return { value: o.default };
      const text = raw.trim().toLowerCase();
      if (text === "true" || text === "1") return { value: true };
      if (text === "false" || text === "0") return { value: false };
      return { problem: `${o.name} must be true or false, got "${raw}"` };
    },
  };
}

/** One of a few words, in any case. */
export function oneOf<const V extends string>(o: Common & { values: readonly V[]; default: NoInfer<V> }): Setting<V> {
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: code(o.default),
    allowed: o.values.map(code).join(", "),
    read(raw) {
      if (isBlank(raw)) return { value: o.default };
      const text = raw.trim().toLowerCase();
      const value = o.values.find((v) => v === text);
      if (value !== undefined) return { value };
      return { problem: `${o.name} must be one of ${o.values.join(", ")}, got "${raw}"` };
    },
  };
}

interface TextOptions extends Common {
  /** The docs' "Allowed" column. */
  allowed: string;
  /** Secrets: the message says the rule, never the value. */
  minLength?: number;
}

/** Free text (a host, a path, a token); without a default, unset is undefined. */
export function text(o: TextOptions & { default: string }): Setting<string>;
export function text(o: TextOptions & { default?: undefined }): Setting<string | undefined>;
export function text(o: TextOptions & { default?: string }): Setting<string | undefined> {
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: o.default === undefined ? "unset" : code(o.default),
    allowed: o.allowed,
    read(raw) {
      if (isBlank(raw)) return { value: o.default };
      const value = raw.trim();
      if (o.minLength !== undefined && value.length < o.minLength)
        return { problem: `${o.name} must be at least ${o.minLength} characters` };
      return { value };
    },
  };
}

/** A URL of one of the schemes, unset by default; the message never repeats it (it may hold a password). */
export function url(o: Common & { schemes: readonly string[] }): Setting<string | undefined> {
  const starts = o.schemes.map((s) => `${s}://`);
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: "unset",
    allowed: `a URL starting with ${starts.map(code).join(" or ")}`,
    read(raw) {
      if (isBlank(raw)) return { value: undefined };
      const value = raw.trim();
      if (starts.some((s) => value.startsWith(s))) return { value };
      return { problem: `${o.name} must start with ${starts.join(" or ")}` };
    },
  };
}

/** Placeholders a map tile URL template may hold: Leaflet's (subdomain, zoom, column, row, retina suffix). */
const TILE_PLACEHOLDERS = ["s", "z", "x", "y", "r"];

/**
 * A map tile URL template (`https://tiles.example/{z}/{x}/{y}.png`), unset by default: http(s), with `{z}`, `{x}`
 * and `{y}`, no other placeholder than Leaflet's, no user name or password (every shopper's browser gets it).
 */
export function tileUrlTemplate(o: Common): Setting<string | undefined> {
  const usage = `${o.name} must be an http:// or https:// URL template with {z}, {x} and {y} (e.g. https://tiles.example/{z}/{x}/{y}.png)`;
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: "unset",
    allowed: `a URL template starting with ${code("https://")} or ${code("http://")}, with ${["{z}", "{x}", "{y}"].map(code).join(", ")} (also ${code("{s}")}, ${code("{r}")})`,
    read(raw) {
      if (isBlank(raw)) return { value: undefined };
      const value = raw.trim();
      const names = [...value.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
      const unknown = names.find((n) => !TILE_PLACEHOLDERS.includes(n));
      if (unknown !== undefined) return { problem: `${usage}; {${unknown}} is not one of {s}, {z}, {x}, {y}, {r}` };
      const missing = ["z", "x", "y"].filter((n) => !names.includes(n));
      if (missing.length) return { problem: `${usage}; it lacks ${missing.map((n) => `{${n}}`).join(", ")}` };
      let parsed: URL;
      try {
        parsed = new URL(value.replace(/\{([szxyr])\}/g, (_, n: string) => (n === "s" ? "a" : n === "r" ? "" : "0")));
      } catch {
        return { problem: `${usage}; it is not a URL` };
      }
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { problem: usage };
      if (parsed.username || parsed.password)
        return { problem: `${o.name} must hold no user name or password: every shopper's browser is given it` };
      return { value };
    },
  };
}

/**
 * Comma-separated AES-256 keys, each base64 of 32 bytes; unset is none. The message names the entry, never a
 * key's text (it is a secret).
 */
export function mainKeys(o: Common & { maxEntries: number }): Setting<Buffer[]> {
  const usage = `${o.name} must be ${o.maxEntries === 1 ? "a key" : "comma-separated keys"}, each base64 of 32 bytes (npm run cli -- secrets new-key)`;
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: "unset",
    allowed: o.maxEntries === 1 ? "base64 of 32 bytes" : "comma-separated, each base64 of 32 bytes",
    read(raw) {
      if (isBlank(raw)) return { value: [] };
      const parts = raw.split(",").map((p) => p.trim());
      if (parts.length > o.maxEntries) return { problem: `${usage}; got ${parts.length}` };
      const keys: Buffer[] = [];
      for (const [i, p] of parts.entries()) {
        const key = parseMainKey(p);
        if (!key) return { problem: parts.length === 1 ? usage : `${usage}; entry ${i + 1} is not` };
        keys.push(key);
      }
      return { value: keys };
    },
  };
}

interface SecondsListOptions extends Common {
  default: readonly number[];
  maxEntries: number;
  maxSeconds: number;
}

/** Comma-separated positive seconds (decimals allowed, e.g. `0.2,0.5` in tests). */
export function secondsList(o: SecondsListOptions): Setting<readonly number[]> {
  const usage = `${o.name} must be comma-separated positive seconds between attempts (e.g. ${o.default.join(",")})`;
  const longest = o.maxSeconds % 86400 === 0 ? `${o.maxSeconds / 86400} days` : `${o.maxSeconds} seconds`;
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: code(o.default.join(",")),
    allowed: `up to ${o.maxEntries} comma-separated seconds, each over 0 and at most ${longest}`,
    read(raw) {
      if (isBlank(raw)) return { value: o.default };
      const parts = raw.split(",").map((p) => p.trim());
      if (parts.length > o.maxEntries)
        return { problem: `${usage}; got ${parts.length} entries, at most ${o.maxEntries}` };
      const seconds: number[] = [];
      for (const [i, p] of parts.entries()) {
        const n = /^\d+(\.\d+)?$/.test(p) ? Number(p) : NaN;
        if (!(n > 0)) return { problem: `${usage}; entry ${i + 1} is "${p}"` };
        if (n > o.maxSeconds) return { problem: `${usage}; entry ${i + 1} (${p}) is longer than ${longest}` };
        seconds.push(n);
      }
      return { value: seconds };
    },
  };
}

/** The values of a table of settings, with the table's shape (groups nest). */
export type SettingValues<T> = { [K in keyof T]: T[K] extends Setting<infer V> ? V : SettingValues<T[K]> };

const isSetting = (entry: object): entry is Setting<unknown> => "read" in entry;

/** The values of a table (or of one group of it) and one problem per bad variable, in the table's order. */
export function readSettings<T extends object>(
  table: T,
  env: NodeJS.ProcessEnv,
): { values: SettingValues<T>; problems: string[] } {
  const problems: string[] = [];
  const walk = (node: object): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(node).map(([key, entry]: [string, object]) => {
        if (!isSetting(entry)) return [key, walk(entry)];
        const reading = entry.read(env[entry.name]);
        if (reading.problem !== undefined) problems.push(reading.problem);
        return [key, reading.value];
      }),
    );
  return { values: walk(table) as SettingValues<T>, problems };
}

/** Every setting of a table, groups flattened, in the table's order. */
export function allSettings(table: object): Setting<unknown>[] {
  return Object.values(table).flatMap((entry: object) => (isSetting(entry) ? [entry] : allSettings(entry)));
}

/** Which proxies' forwarding headers to believe, in the forms Express's `trust proxy` takes. */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** `false`, a number of hops, or a comma-separated list of addresses, CIDR ranges and Express's range names. */
export function trustProxy(o: Common): Setting<TrustProxy> {
  return {
    name: o.name,
    meaning: o.meaning,
    shownDefault: code("false"),
    allowed: `${code("false")}, hops ${code("1")}-${code("10")}, or addresses and ranges (${code("10.0.0.0/8,::1")}; ${PROXY_NAMES.map(code).join(", ")})`,
    read(raw) {
      if (isBlank(raw)) return { value: false };
      const text = raw.trim().toLowerCase();
      if (text === "false" || text === "0") return { value: false };
      if (/^\d+$/.test(text)) {
        const hops = Number(text);
        if (hops <= 10) return { value: hops };
      }
      const parts = text.split(",").map((p) => p.trim());
      const bad = parts.find((p) => !PROXY_NAMES.includes(p) && !isAddressOrRange(p));
      if (bad === undefined && parts.length > 0) return { value: parts };
      return {
        problem: `${o.name} must be false, a number of proxies 1-10, or comma-separated addresses or ranges (e.g. 10.0.0.0/8,loopback), got "${raw}"`,
      };
    },
  };
}

function isAddressOrRange(p: string): boolean {
  const [address, bits, ...rest] = p.split("/");
  if (rest.length || !address || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}
