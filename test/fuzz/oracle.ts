// Sends a fuzz request to a test server and judges the answer against the spec: never a 5xx, only
// declared statuses, the error shape on every failure, valid 2xx bodies, and no stored change after
// a refusal (counted by a trigger on every table).
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { sql } from "kysely";
import { basicAuth } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import fc from "fast-check";
import { valid, type FuzzRequest, type Who } from "./generate.ts";
import type { RuleRequest } from "./rules.ts";
import { operationAt, type Operation, type Schema, type SpecModel } from "./spec-model.ts";

export interface Principals {
  merchant: [string, string];
  otherMerchant: [string, string];
  operator: [string, string];
}

export class Oracle {
  private ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private validators = new WeakMap<Schema, ValidateFunction>();
  private byId: Map<string, Operation>;
  /** Ids of created resources, by the path parameter name they fill. */
  readonly pools = new Map<string, string[]>();
  /** Create operations and the path parameter names whose pools their answers feed. */
  private feeds = new Map<string, string[]>();
  private lastFingerprint?: string;
  /** Answers by status, for the run's summary. */
  readonly statuses = new Map<number, number>();
  readonly timings = { request: 0, fingerprint: 0 };

  constructor(
    private srv: TestServer,
    private model: SpecModel,
    private principals: Principals,
  ) {
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    this.byId = new Map(model.operations.map((o) => [o.operationId, o]));
    for (const o of model.operations.filter((x) => x.implemented)) {
      for (const p of o.params.filter((x) => x.in === "path")) {
        if (!this.pools.has(p.name)) this.pools.set(p.name, []);
        for (const c of this.creatorsOf(p.name, o.path))
          this.feeds.set(c.operationId, [...new Set([...(this.feeds.get(c.operationId) ?? []), p.name])]);
      }
    }
  }

  /** Path parameters that some implemented create operation provides ids for. */
  fedParams(): Set<string> {
    return new Set([...this.feeds.values()].flat());
  }

  operation(id: string): Operation {
    return this.byId.get(id)!;
  }

  /**
   * Implemented POSTs without path parameters that answer 201 with the parameter (or `id`) and live
   * under the path's collection: `/inbound_shipments/_create` feeds `{shipment_id}` of
   * `/inbound_shipments/{shipment_id}/...`. Generic: a new resource gets fixtures with no new code.
   */
  private creatorsOf(param: string, template: string): Operation[] {
    return this.model.operations.filter((c) => {
      if (!c.implemented || c.method !== "post" || c.params.some((p) => p.in === "path")) return false;
      const props = c.responses.get(201)?.properties as Record<string, unknown> | undefined;
      if (!props || !(param in props || "id" in props)) return false;
      const collection = c.path.slice(0, c.path.lastIndexOf("/"));
      return template.startsWith(`${collection}/{${param}}`);
    });
  }

  /** Creates a few resources of every kind a path parameter names, through the spec's create operations. */
  async seed(perKind = 3): Promise<void> {
    await this.countChanges();
    for (const creator of this.model.operations.filter((o) => this.feeds.has(o.operationId))) {
      // The spec's example, else bodies generated from the schema (the server may refuse some).
      const bodies = creator.bodyExamples.length
        ? Array(perKind).fill(creator.bodyExamples[0])
        : fc.sample(valid(creator.body), { numRuns: perKind * 3, seed: 1 });
      const who: Who = creator.roles.includes("merchant") ? "merchant" : "operator";
      for (const body of bodies) {
        const res = await fetch(this.srv.baseUrl + creator.path, {
          method: "POST",
          headers: { ...this.auth(who), "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        this.remember(creator, res.status, await res.json());
      }
    }
    // The oracle is only as good as its counter: the fixtures must have moved it.
    if ((await this.fingerprint()) === "0")
      throw new Error("the change counter did not see the fixtures being created");
  }

  /**
   * A counter of committed row changes, bumped by a trigger on every table of the schema: it moves
   * exactly when stored data changed and was committed (a rolled-back change rolls its count back
   * too). Cheaper than comparing snapshots, which grow with every created resource.
   */
  private async countChanges(): Promise<void> {
    const db = this.srv.handle.db;
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%' order by 1`.execute(
      db,
    );
    await sql`create table fuzz_changes (n bigint not null)`.execute(db);
    await sql`insert into fuzz_changes values (0)`.execute(db);
    await sql`create function fuzz_count_change() returns trigger language plpgsql as $$ begin update fuzz_changes set n = n + 1; return null; end $$`.execute(
      db,
    );
    // Reading the events feed gives committed events their positions (webhooks/db.ts sequenceFeed): the order a
    // reader sees them in, not data a request changes. Those columns alone are not counted.
    const ordering: Record<string, string> = { webhook_events: "feed_position", webhook_feed_positions: "*" };
    for (const { name } of tables.rows) {
      const skip = ordering[name];
      if (skip === "*") continue;
      let events = sql`insert or update or delete`;
      if (skip) {
        const cols = await sql<{ c: string }>`
          select column_name as c from information_schema.columns
          where table_schema = current_schema() and table_name = ${name} and column_name <> ${skip}`.execute(db);
        events = sql`insert or delete or update of ${sql.join(cols.rows.map((r) => sql.ref(r.c)))}`;
      }
      await sql`create trigger fuzz_count after ${events} on ${sql.table(name)} for each row execute function fuzz_count_change()`.execute(
        db,
      );
    }
  }

  /** How many row changes were committed so far. */
  private async fingerprint(): Promise<string> {
    const r = await sql<{ n: string }>`select n from fuzz_changes`.execute(this.srv.handle.db);
    return String(r.rows[0]!.n);
  }

  private remember(op: Operation, status: number, body: unknown): void {
    const names = this.feeds.get(op.operationId);
    if (!names || status !== 201 || !body || typeof body !== "object") return;
    for (const n of names) {
      const id = (body as Record<string, unknown>)[n] ?? (body as Record<string, unknown>).id;
      if (typeof id === "string") this.pools.get(n)!.push(id);
    }
  }

  auth(who: Who): Record<string, string> {
    switch (who) {
      case "none":
        return {};
      case "garbage":
        return { Authorization: "Basic !!notbase64!!" };
      case "wrongSecret":
        return { Authorization: basicAuth(this.principals.merchant[0], "not-the-secret") };
      default:
        return { Authorization: basicAuth(...this.principals[who]) };
    }
  }

  concretePath(r: FuzzRequest): string {
    return this.operation(r.operationId).path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = r.path[name]!;
      // Lone surrogates cannot be percent-encoded: they go as U+FFFD, as a browser would send them.
      if ("literal" in v) return encodeURIComponent((v.literal as string & { toWellFormed(): string }).toWellFormed());
      const pool = this.pools.get(v.pool) ?? [];
      return pool.length ? pool[v.index % pool.length]! : "0000000000000000000000ff";
    });
  }

  describe(r: FuzzRequest): string {
    const path = this.concretePath(r);
    const cut = (x: string) => (x.length > 300 ? `${x.slice(0, 300)}...(${x.length} characters)` : x);
    const q = r.query.length ? `?${new URLSearchParams(r.query.map(([k, v]) => [cut(k), cut(v)]))}` : "";
    const body =
      r.body === undefined
        ? ""
        : typeof r.body === "string"
          ? r.body
          : `<bytes ${Buffer.from(r.body).toString("hex").slice(0, 400)}>`;
    return [
      `${r.method.toUpperCase()} ${path}${q}  (${r.operationId}; as ${r.who}; ${r.mutation})`,
      ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`),
      ...(r.contentType ? [`Content-Type: ${r.contentType}`] : []),
      ...(body ? [body.length > 1500 ? `${body.slice(0, 1500)}... (${body.length} characters)` : body] : []),
    ].join("\n");
  }

  /** Sends `r` and throws, describing the request and the answer, when the answer breaks the contract. */
  async check(r: FuzzRequest): Promise<void> {
    const method = r.method.toUpperCase();
    const path = this.concretePath(r);
    const url = `${this.srv.baseUrl}${path}${r.query.length ? `?${new URLSearchParams(r.query)}` : ""}`;
    const headers: Record<string, string> = { ...this.auth(r.who), ...r.headers };
    // fetch sends no body with GET or HEAD.
    const withBody = r.body !== undefined && method !== "GET" && method !== "HEAD";
    if (withBody && r.contentType) headers["Content-Type"] = r.contentType;
    const writes = method !== "GET" && method !== "HEAD";
    // Requests run one at a time: the count read after the previous one is the count before this one.
    this.lastFingerprint ??= await this.fingerprint();
    const before = this.lastFingerprint;
    const t = performance.now();
    const res = await fetch(url, {
      method,
      headers,
      body: withBody ? (typeof r.body === "string" ? r.body : Buffer.from(r.body!)) : undefined,
    });
    const text = await res.text();
    this.timings.request += performance.now() - t;
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    if (process.env.FUZZ_DEBUG) console.log("case", res.status, r.operationId, r.mutation.slice(0, 100));
    const fail = (why: string) => {
      throw new Error(`${why}\n--- request\n${this.describe(r)}\n--- response\n${res.status} ${text.slice(0, 1500)}`);
    };
    let json: unknown;
    // A page the spec declares (a receiving label): HTML, judged below by its status; everything else is JSON.
    const page = res.headers.get("content-type")?.startsWith("text/html") === true;
    if (method !== "HEAD" && !page) {
      try {
        json = JSON.parse(text);
      } catch {
        fail("the answer is not JSON");
      }
    }
    if (res.status >= 500 && res.status !== 501) fail(`server error ${res.status}`);

    const target = operationAt(this.model.operations, r.method, path);
    if (!target) {
      // 431 comes from the HTTP parser, before any routing.
      if (![401, 405, 429, 431].includes(res.status))
        fail(`a method without an operation answered ${res.status}, not 405`);
    } else if (!target.responses.has(res.status)) {
      fail(`status ${res.status} is not declared for ${target.operationId}`);
    } else if (res.status === 501 && target.implemented) {
      fail("501 from an implemented operation");
    }
    if (page) {
      if (!target?.pages.has(res.status))
        fail(`an HTML answer that ${target?.operationId ?? "no operation"} does not declare`);
      if (method !== "HEAD" && !text.startsWith("<!doctype html>")) fail("the page is not an HTML document");
    } else if (method !== "HEAD") {
      if (res.status >= 400) {
        this.validate(this.model.errorSchema, json, fail, "the error shape");
        if ((json as { request_id?: string }).request_id !== res.headers.get("x-request-id"))
          fail("request_id differs from X-Request-Id");
      } else if (target) {
        const schema = target.responses.get(res.status);
        if (schema) this.validate(schema, json, fail, `the ${res.status} schema of ${target.operationId}`);
      }
    }
    // A request that breaks exactly one value rule (rules.ts) must be refused for that rule.
    const expected = (r as Partial<RuleRequest>).expect;
    if (expected && method !== "HEAD") {
      const body = json as { code?: string; details?: { path: string }[] };
      if (res.status !== expected.status || body.code !== expected.code)
        fail(`breaking one rule must be ${expected.status} ${expected.code}`);
      if (!body.details?.some((d) => d.path === expected.path)) fail(`the details must name ${expected.path}`);
    }
    const ft = performance.now();
    this.lastFingerprint = await this.fingerprint();
    this.timings.fingerprint += performance.now() - ft;
    if (this.lastFingerprint !== before) {
      if (res.status >= 400) fail(`a refused request (${res.status}) changed stored data`);
      if (!writes) fail(`a ${method} changed stored data`);
    }
    if (target) this.remember(target, res.status, json);
  }

  private validate(schema: Schema, value: unknown, fail: (why: string) => never, what: string): void {
    let v = this.validators.get(schema);
    if (!v) {
      v = this.ajv.compile(schema);
      this.validators.set(schema, v);
    }
    if (!v(value)) fail(`the body breaks ${what}: ${this.ajv.errorsText(v.errors)}`);
  }
}
