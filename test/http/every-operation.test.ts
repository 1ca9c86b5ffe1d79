// Rules that hold for every operation of the spec, implemented or not: credentials, roles, methods,
// request ids, and "501 = no handler in the registry". New operations get these checks for free.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { concretePath, implemented, spec, specOps, type SpecOp } from "../helpers/spec.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { LoginThrottle } from "../../server/accounts/throttle.ts";
import { signIn } from "../../server/auth/sessions.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { signInStation } from "../../server/warehouse/sessions.ts";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";

let srv: TestServer;
let bare: TestServer; // the same app with an empty registry: every operation is "not implemented"
const MERCHANT = basicAuth("M-every-op.example.com", "secret-every-op.example.com");
const OPERATOR = basicAuth("W-every-op-wh", "secret-every-op-wh");

beforeAll(async () => {
  [srv, bare] = await Promise.all([startTestServer(), startTestServer({ handlers: {} })]);
  for (const s of [srv, bare]) {
    await s.merchant("every-op.example.com");
    await s.operator("every-op-wh");
  }
});
afterAll(async () => {
  await Promise.all([srv?.close(), bare?.close()]);
});

async function call(
  s: TestServer,
  op: SpecOp,
  init: {
    method?: string;
    authorization?: string;
    cookie?: string;
    csrf?: string;
    body?: unknown;
    query?: string;
  } = {},
) {
  const headers: Record<string, string> = {};
  if (init.authorization) headers.Authorization = init.authorization;
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.csrf) headers["X-CSRF-Token"] = init.csrf;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${s.baseUrl}${concretePath(op)}${init.query ?? ""}`, {
    method: init.method ?? op.method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { response, error };
}

const authOf = (role: string) => (role === "warehouse" ? OPERATOR : MERCHANT);
const label = (op: SpecOp) => `${op.operationId} (${op.method} ${op.path})`;
const cases = specOps.map((op) => [label(op), op] as const);

/** A portal session of the every-op merchant on a server, for operations only a session may call. */
const sessions = new Map<TestServer, Promise<{ cookie: string; csrf: string }>>();
function sessionCookie(s: TestServer): Promise<{ cookie: string; csrf: string }> {
  let cookie = sessions.get(s);
  if (!cookie) {
    const email = `every-op-${sessions.size}@every-op.example.com`;
    cookie = (async () => {
      await provisionPortalUser(s.handle.db, "every-op.example.com", email, "every-op-password");
      const signed = await signIn(
        s.handle.db,
        new LoginThrottle(s.handle.db),
        { email, password: "every-op-password" },
        "127.0.0.1",
      );
      if (!("token" in signed)) throw new Error(`${email} is a user of one merchant only: no choice to make`);
      return { cookie: `portal_session=${signed.token}`, csrf: signed.session.csrf_token };
    })();
    sessions.set(s, cookie);
  }
  return cookie;
}

/** A station session of a warehouse user of `role` on a server, for operations a station session may call. */
const stations = new Map<string, Promise<{ cookie: string; csrf: string }>>();
function stationCookie(s: TestServer, role: "receiver" | "supervisor" = "supervisor") {
  const key = `${s.baseUrl} ${role}`;
  let cookie = stations.get(key);
  if (!cookie) {
    const email = `every-op-${role}@warehouse.example.com`;
    cookie = (async () => {
      await provisionWarehouseUser(s.handle.db, email, "every-op-password", { role });
      const signed = await signInStation(
        s.handle.db,
        new LoginThrottle(s.handle.db),
        { email, password: "every-op-password" },
        "127.0.0.1",
      );
      return { cookie: `station_session=${signed.token}`, csrf: signed.session.csrf_token };
    })();
    stations.set(key, cookie);
  }
  return cookie;
}

const openToAll = cases.filter(([, op]) => op.schemes.length === 0);
describe.each(openToAll)("%s (open to everyone)", (_name, op) => {
  it("without credentials is answered: a bad body is 400, not 401", async () => {
    const r = await expectUnchanged(srv, () =>
      call(srv, op, op.hasBody ? { body: { not: "valid" } } : { query: "?not=valid" }),
    );
    expectError(r, 400, "validation_failed");
  });
});

const sessionOnly = cases.filter(([, op]) => op.schemes.length > 0 && !op.schemes.includes("basicAuth"));
describe.each(sessionOnly)("%s (portal session only)", (_name, op) => {
  it.each(["merchant", "warehouse"])("%s Basic credentials are 401: it needs a portal session", async (role) => {
    const r = await expectUnchanged(srv, () => call(srv, op, { authorization: authOf(role) }));
    expectError(r, 401, "unauthorized");
  });
});

describe.each(cases.filter(([, op]) => op.schemes.length > 0))("%s", (_name, op) => {
  it("without credentials is 401 with a Basic challenge and a request id, and changes nothing", async () => {
    const r = await expectUnchanged(srv, () => call(srv, op, { body: op.hasBody ? {} : undefined }));
    expectError(r, 401, "unauthorized");
    expect(r.response.headers.get("www-authenticate")).toMatch(/^Basic realm="[^"]+"/);
  });

  it("with a wrong secret is 401 as well", async () => {
    // An account of its own per operation: the login throttle counts failures per account and address.
    const r = await call(srv, op, {
      authorization: basicAuth(`M-${op.operationId.toLowerCase()}.example.com`, "wrong-secret-value"),
    });
    expectError(r, 401, "unauthorized");
  });

  const others = op.schemes.includes("basicAuth")
    ? ["merchant", "warehouse"].filter((role) => !op.roles.includes(role))
    : [];
  it.each(others)("a %s is 403 access_denied, decided before the body is read, and nothing changes", async (role) => {
    const r = await expectUnchanged(srv, () =>
      call(srv, op, { authorization: authOf(role), body: op.hasBody ? { not: "valid" } : undefined }),
    );
    expectError(r, 403, "access_denied");
  });

  it(`answers 501 not_implemented exactly when the registry has no handler (${implemented.has(op.operationId) ? "implemented" : "not implemented yet"})`, async () => {
    const query = op.requiredQuery.map((name) => `${name}=${encodeURIComponent(String(queryExample(name)))}`).join("&");
    const body = op.hasBody ? op.bodyExample : undefined;
    expect(!op.hasBody || body !== undefined, "the spec has a request body example").toBe(true);
    const auth = async (s: TestServer) =>
      op.roles.length > 0
        ? { authorization: authOf(op.roles[0]!) }
        : op.stationRoles.length > 0
          ? await stationCookie(s)
          : await sessionCookie(s);
    const r = await call(bare, op, { ...(await auth(bare)), body, query: query && `?${query}` });
    expectError(r, 501, "not_implemented");
    if (!implemented.has(op.operationId)) {
      expectError(
        await call(srv, op, { ...(await auth(srv)), body, query: query && `?${query}` }),
        501,
        "not_implemented",
      );
    }
  });
});

// People's sessions, walked over the spec: a warehouse user's station session on an operation that takes none
// (every merchant operation), a merchant's portal session on one that takes none (the warehouse's), and a receiver
// on a supervisor's operation are valid principals outside their role: 403, decided before the body is read (a
// bad one is sent), and nothing changes.
describe("people's sessions outside their role", () => {
  const withCredentials = cases.filter(([, op]) => op.schemes.length > 0);
  const refusing = (scheme: string) => withCredentials.filter(([, op]) => !op.schemes.includes(scheme));
  const badBody = (op: SpecOp) => (op.hasBody ? { not: "valid" } : undefined);

  it("covers both kinds: merchants' operations refuse stations, the warehouse's refuse the portal", () => {
    expect(refusing("stationCookieAuth").map(([, op]) => op.operationId)).toContain("listInboundShipments");
    expect(refusing("cookieAuth").map(([, op]) => op.operationId)).toEqual(
      expect.arrayContaining([
        "listWarehouseInboundShipments",
        "lookupWarehouseInboundShipment",
        "createWarehouseUser",
      ]),
    );
  });

  it.each(refusing("stationCookieAuth"))("%s refuses a warehouse user's station session", async (_name, op) => {
    const session = await stationCookie(srv);
    const r = await expectUnchanged(srv, () => call(srv, op, { ...session, body: badBody(op) }));
    expectError(r, 403, "access_denied");
  });

  it.each(refusing("cookieAuth"))("%s refuses a merchant's portal session", async (_name, op) => {
    const session = await sessionCookie(srv);
    const r = await expectUnchanged(srv, () => call(srv, op, { ...session, body: badBody(op) }));
    expectError(r, 403, "access_denied");
  });

  const supervisors = withCredentials.filter(
    ([, op]) => op.stationRoles.length > 0 && !op.stationRoles.includes("receiver"),
  );
  it("a receiver is refused the supervisors' operations: managing warehouse users", () => {
    expect(supervisors.map(([, op]) => op.operationId).sort()).toEqual([
      "createWarehouseUser",
      "deleteWarehouseUser",
      "listWarehouseUsers",
      "resetWarehouseUserPassword",
      "updateWarehouseUser",
    ]);
  });
  it.each(supervisors)("%s refuses a receiver's station session", async (_name, op) => {
    const session = await stationCookie(srv, "receiver");
    const r = await expectUnchanged(srv, () => call(srv, op, { ...session, body: badBody(op) }));
    expectError(r, 403, "access_denied");
  });
});

// A publishable key is public (it is in a shop's HTML): every operation that does not list it refuses it with 403
// before anything is read or changed, and those that list it answer it.
describe("a publishable key", () => {
  let key: string;
  beforeAll(async () => {
    const created = await fetch(`${srv.baseUrl}/publishable_keys/_create`, {
      method: "POST",
      headers: { Authorization: MERCHANT, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "every-op", origins: ["https://shop.every-op.example"] }),
    });
    expect(created.status).toBe(201);
    key = ((await created.json()) as { key: string }).key;
  });
  const refusing = cases.filter(([, op]) => op.schemes.length > 0 && !op.schemes.includes("publishableKey"));
  it.each(refusing)("%s refuses it: 403 access_denied, and nothing changes", async (_name, op) => {
    const r = await expectUnchanged(srv, () =>
      call(srv, op, { authorization: `Bearer ${key}`, body: op.hasBody ? op.bodyExample : undefined }),
    );
    expectError(r, 403, "access_denied");
    expect((r.error as { message: string }).message).toMatch(/publishable key may only ask for shipping options/);
  });
  const accepting = cases.filter(([, op]) => op.schemes.includes("publishableKey"));
  it("is accepted by the shipping options and the pickup point lookup only", () => {
    expect(accepting.map(([, op]) => op.operationId).sort()).toEqual(["getShippingOptions", "lookupPickupPoints"]);
  });
  it.each(accepting)("%s answers it", async (_name, op) => {
    const r = await call(srv, op, { authorization: `Bearer ${key}`, query: "?postalcode=00100&country=FI" });
    expect(r.response.status).toBe(200);
  });
});

describe("methods the spec does not declare on a path", () => {
  const paths = [...new Set(specOps.map((op) => op.path))];
  it.each(paths)("%s: 405 method_not_allowed with Allow listing the declared methods", async (path) => {
    const declared = specOps.filter((op) => op.path === path).map((op) => op.method);
    const method = ["PATCH", "PUT", "DELETE", "POST", "GET"].find((m) => !declared.includes(m))!;
    const op = specOps.find((o) => o.path === path)!;
    const r = await expectUnchanged(srv, () => call(srv, { ...op, method }, { authorization: MERCHANT }));
    expectError(r, 405, "method_not_allowed");
    const allow = r.response.headers
      .get("allow")!
      .toUpperCase()
      .split(/\s*,\s*/)
      .sort();
    expect(allow).toEqual(expect.arrayContaining(declared));
    expect(allow).not.toContain(method);
  });
});

function queryExample(name: string): unknown {
  const params = Object.values(
    spec.components.parameters as Record<
      string,
      { name: string; in: string; example?: unknown; schema?: { example?: unknown; default?: unknown } }
    >,
  );
  const p = params.find((x) => x.name === name && x.in === "query");
  const value = p?.example ?? p?.schema?.example ?? p?.schema?.default;
  if (value === undefined) throw new Error(`query parameter ${name} needs an example in the spec`);
  return value;
}
