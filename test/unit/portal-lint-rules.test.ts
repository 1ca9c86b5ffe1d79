// The portal's house rules that hold issue 56 and issue 54 item 2 (eslint.config.js): one language per page (no
// words written into a view), one way from a failed request to words, one problem banner, TanStack Query's
// signal in every query's request, one data layer shape (query option factories in each area's data file), one
// list of revocable keys and addresses, and the syntax rules (the spec's base
// path, one name for each spec type, one kg <-> g conversion, one dialog, no request body type written by hand). Each rule is shown to refuse what it
// is about and to let the right way pass, so that a selector that silently stopped matching fails here, not only in
// review.
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- the house rules are plain JavaScript (eslint.config.js), without types
import * as rules from "../../eslint.config.js";

const {
  DATA_FILES,
  ONE_BANNER,
  ONE_DIALOG_ROLE,
  ONE_LANGUAGE,
  ONE_QUERY_SHAPE,
  ONE_REVOCABLE_LIST,
  ONE_WAY,
  PORTAL_SYNTAX,
  QUERY_OPTIONS_HOME,
} = rules as Record<string, unknown>;

const linter = new Linter({ configType: "flat" });
const ALL = [
  ...(PORTAL_SYNTAX as unknown[]),
  ONE_DIALOG_ROLE,
  ONE_LANGUAGE,
  ...(ONE_WAY as unknown[]),
  ONE_BANNER,
  ONE_REVOCABLE_LIST,
  ONE_QUERY_SHAPE,
  QUERY_OPTIONS_HOME,
];
/** As eslint.config.js has them: every rule in a view, the query option factories' own rule left out in a data file. */
const config = [
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: { "no-restricted-syntax": ["error", ...ALL] },
  },
  {
    files: DATA_FILES as string[],
    rules: { "no-restricted-syntax": ["error", ...ALL.filter((r) => r !== QUERY_OPTIONS_HOME)] },
  },
] as Linter.Config[];

/** The rule messages `code` gets, each by its first words. */
const refusals = (code: string, file = "portal/src/pages/x/View.tsx") =>
  linter.verify(code, config, file).map((m) => m.message.split(":")[0]);
const DATA_FILE = "portal/src/pages/x/data.ts";

const WORDS = "Words a person reads come from the catalogue (useWords().t, portal/src/words/<lang>/)";
const ONE_PATH = "A failed request is said one way";
const NOT_MESSAGE = "Say a failed request in the person's words, not the service's message";
const SIGNAL = "Pass TanStack Query's signal to the request (queryFn";
const BANNER = "The portal has one problem banner";
const QUERY_SHAPE =
  "Read through a query option factory of the area's data.ts (useQuery(shipmentQuery(api, id))), not an options object written in the call.";
const HOME = "Query option factories live in the area's data file (pages/<area>/data.ts, app/data.ts)";
const REVOCABLE = "A list of keys or addresses that can be revoked is parts/RevocableTable.tsx";
const BASE = "Import BASE_PATH from generated/base-path.ts";
const ONE_NAME = "A spec type has one name, its own";
const GRAMS = "A kilogram's grams come from parts/weight.ts (kgFromGrams, gramsFromKg, wholeGramsFromKg)";
const DIALOG = "The portal has one dialog";
const BODY = "A request body's type is the spec's";
const ANSWER = "An answer is typed by the spec";

describe("the portal's house rules", () => {
  it("refuse words written into a view, in text, attributes a person reads, and sentences made in place", () => {
    for (const code of [
      `const a = <h1>Shipments</h1>;`,
      `const a = <p>{"Not given"}</p>;`,
      `const a = <p>{ok ? "Working" : x}</p>;`,
      "const a = <p>{`Revoked ${when}`}</p>;",
      `const a = <input placeholder="e.g. PO-1042" />;`,
      `const a = <td data-label="Status" />;`,
      `const a = <Field label={"Email"} />;`,
      "const a = <Confirm title={`Remove ${email}?`} />;",
      `const a = <nav aria-label={open ? "Main" : t.x} />;`,
    ])
      expect(refusals(code), code).toEqual([WORDS]);
  });

  it("let the catalogue's words, symbols, numbers, class names and comparisons through", () => {
    for (const code of [
      `const a = <h1>{t.shipments.title}</h1>;`,
      `const a = <button aria-label={t.moveUp(label)}>↑</button>;`,
      `const a = <p className="muted nowrap">{n} · {w.number(2)} – €</p>;`,
      `const a = <input placeholder={m === "letter" ? undefined : t.noLimit} type="number" />;`,
      `const a = <Field label={t.orderValue(sign(w.locale, "EUR"))} />;`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse another way from an error to words, a service's message shown, a banner of its own, a query without its signal", () => {
    expect(refusals(`const p = w.problems(bodyOf(e), "createX");`)).toEqual([ONE_PATH]);
    expect(refusals(`const p = problemsIn(who, e);`)).toEqual([ONE_PATH]);
    expect(refusals(`const a = <p>{list.error.message}</p>;`)).toEqual([NOT_MESSAGE]);
    expect(refusals(`const a = <div role="alert" className="problem">{m}</div>;`)).toEqual([BANNER]);
    expect(refusals(`const a = <p className="muted problem" />;`)).toEqual([BANNER]);
    expect(refusals(`queryOptions({ queryKey: K, queryFn: () => unwrap(api.GET("/x")) });`, DATA_FILE)).toEqual([
      SIGNAL,
    ]);
    expect(
      refusals(`infiniteQueryOptions({ queryKey: K, queryFn: async ({ pageParam }) => get(pageParam) });`, DATA_FILE),
    ).toEqual([SIGNAL]);
  });

  it("refuse a revocable list written again, and let the one list and a Revoke outside a table through", () => {
    for (const code of [
      `const a = <table><tbody><tr><td><button onClick={f}>{t.revoke}</button></td></tr></tbody></table>;`,
      `const a = <table><tbody>{items.map((k) => <tr key={k.id}><td>{k.revoked_at ? w.revokedAt(d) : w.working}</td></tr>)}</tbody></table>;`,
    ])
      expect([...new Set(refusals(code))], code).toEqual([REVOCABLE]);
    for (const code of [
      `const a = <RevocableTable label={t.keys} items={items} words={t} confirmLabel={t.revokeKey} />;`,
      `const a = <Confirm title={t.revokeQuestion(name)} confirmLabel={t.revokeKey} />;`,
      `const a = <table><tbody><tr><td>{t.name}</td></tr></tbody></table>;`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("and let the one way through", () => {
    for (const code of [
      `const a = <ProblemBanner problems={problemsOf(w, list.error, "listX")} />;`,
      `const a = <p className="problems-list status problem-free" />;`,
      `const shipment = useQuery(shipmentQuery(api, id));`,
    ])
      expect(refusals(code), code).toEqual([]);
    for (const code of [
      `export const xQuery = (api: Api) => queryOptions({ queryKey: K, queryFn: ({ signal }) => unwrap(api.GET("/x", { signal })) });`,
      `export const xsQuery = () => infiniteQueryOptions({ queryKey: K, queryFn: ({ pageParam, signal }) => get(pageParam, signal) });`,
    ])
      expect(refusals(code, DATA_FILE), code).toEqual([]);
  });

  it("refuse the base path written again, in a string or a template", () => {
    expect(refusals(`const u = "/2015-01-01/inbound_shipments";`)).toEqual([BASE]);
    expect(refusals("const u = `${origin}/2015-01-01/x`;")).toEqual([BASE]);
    expect(refusals("const u = `${origin}${BASE_PATH}/x`;")).toEqual([]);
  });

  it("refuse a second name for a spec type, also for a part of one or for the schemas (api.ts names them S, once)", () => {
    for (const code of [
      `type Role = S["PortalUserRole"];`,
      `type Role = components["schemas"]["PortalUserRole"];`,
      `export type Role = S["PortalUser"]["role"];`,
      `type Candidate = S["AmbiguousReference"]["candidates"][number];`,
      `type Choice = components["schemas"]["PortalMerchantChoice"]["merchants"];`,
      `type S = components["schemas"];`,
    ])
      expect(refusals(code), code).toEqual([ONE_NAME]);
    for (const code of [
      `import type { PortalUserRole } from "../../generated/api.ts";`,
      `import type { S } from "../api.ts";`,
      `const roles: S["PortalUserRole"][] = ["admin"];`,
      `function f(u: S["PortalUser"]["role"]) {}`,
      `type Asked = "confirm" | "delete";`,
      `type Pending = { kind: "reset"; user: PortalUser };`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse a kilogram's grams worked out in place, and let the one conversion and other thousands through", () => {
    for (const code of [
      `const g = kg * 1000;`,
      `const kg = g / 1000;`,
      `const kg = g * 0.001;`,
      `const kg = g / 1e3;`,
      `g *= 1000;`,
      `const GRAMS = 1000;`,
      `export const GRAMS_PER_KG = 1000;`,
      `const w = { weight: 1000 };`,
    ])
      expect(refusals(code), code).toEqual([GRAMS]);
    for (const code of [
      `const g = gramsFromKg(kg);`,
      `const kg = kgFromGrams(g) + 1;`,
      `const MS_PER_SECOND = 1000;`,
      `const limits = { max: 1000, minimum: 0 };`,
      `setTimeout(f, 1000);`,
      `const a = <input max={1000} />;`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse a dialog made by hand, and let the one Confirm through", () => {
    for (const code of [
      `const a = <dialog open>{x}</dialog>;`,
      `ref.current?.showModal();`,
      `const a = <div role="dialog" aria-modal="true">{x}</div>;`,
      `const a = <section role="alertdialog">{x}</section>;`,
    ])
      expect(refusals(code), code).toEqual([DIALOG]);
    for (const code of [
      `const a = <Confirm title={t.q} confirmLabel={t.yes} form={id} onCancel={close}>{x}</Confirm>;`,
      `const a = <div role="alert">{x}</div>;`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse a request body's type written by hand, and let the spec's type through", () => {
    for (const code of [
      `const body: { current_password: string; new_password: string } = x;`,
      `function send(body: { password: string }) {}`,
      `useMutation({ mutationFn: (body: { password: string }) => unwrap(post(body)) });`,
      `useMutation({ mutationFn: (input: { role: string }) => unwrap(post(input)) });`,
      `useMutation({ mutationFn: ({ role }: { role: string }) => unwrap(post(role)) });`,
      `type ChangeBody = { current_password: string };`,
      `interface ChangeBody { current_password: string }`,
      `const f = (changeBody: { a: string }) => changeBody;`,
    ])
      expect(refusals(code), code).toEqual([BODY]);
    for (const code of [
      `useMutation({ mutationFn: (body: PortalPasswordChange) => unwrap(post(body)) });`,
      `useMutation({ mutationFn: (body: S["PortalUserCreate"]) => unwrap(post(body)) });`,
      `useMutation({ mutationFn: (id: string) => unwrap(revoke(id)) });`,
      `type AnswerBody = Omit<Partial<ErrorBody>, "code"> & { code?: AnswerCode };`,
      `api.POST("/x", { body: { role } });`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse an answer's body cast to a shape written here, and let the typed answer and the spec's types through", () => {
    for (const code of [
      `const code = (r.error as { code?: string } | undefined)?.code;`,
      `const e = r.error as { code?: string; candidates?: LookupCandidate[] };`,
      `const d = answer.data as { items: unknown[] };`,
    ])
      expect(refusals(code), code).toEqual([ANSWER]);
    for (const code of [
      `const code = r.error?.code;`,
      `if (body && "candidates" in body) setCandidates(body.candidates);`,
      `throw new ApiError(401, r.error as ErrorBody);`,
      `setChoices((r.error as unknown as S["PortalMerchantChoice"]).merchants);`,
      // Not an answer: a browser API the DOM types do not know yet.
      `const d = (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;`,
    ])
      expect(refusals(code), code).toEqual([]);
  });

  it("refuse a query's options written in a view or a hook, and a query option factory outside the data files", () => {
    for (const [code, file] of [
      [`const k = useQuery({ queryKey: KEYS, queryFn: ({ signal }) => unwrap(api.GET("/keys", { signal })) });`],
      [`const l = useInfiniteQuery({ queryKey: K, queryFn: ({ pageParam, signal }) => get(pageParam, signal) });`],
      [`const s = useQuery({ ...shipmentQuery(api, id), enabled: ok });`],
      [`void qc.fetchQuery({ queryKey: K, queryFn: ({ signal }) => get(signal) });`],
      [`void qc.ensureQueryData({ queryKey: K, queryFn: ({ signal }) => get(signal) });`],
      [`export const useX = () => useQuery({ queryKey: K, queryFn: ({ signal }) => get(signal) });`, DATA_FILE],
      [
        `export const useX = () => useQuery({ queryKey: K, queryFn: ({ signal }) => get(signal) });`,
        "portal/src/app/data.ts",
      ],
    ] as [string, string?][])
      expect(refusals(code, file), code).toEqual([QUERY_SHAPE]);
    for (const [code, file] of [
      [`const k = useQuery(queryOptions({ queryKey: K, queryFn: ({ signal }) => get(signal) }));`],
      [`const x = infiniteQueryOptions({ queryKey: K, queryFn: ({ pageParam, signal }) => get(pageParam, signal) });`],
      [
        `export const q = () => queryOptions({ queryKey: K, queryFn: ({ signal }) => get(signal) });`,
        "portal/src/app/session.ts",
      ],
      [
        `export const q = () => queryOptions({ queryKey: K, queryFn: ({ signal }) => get(signal) });`,
        "portal/src/pages/pricing/queries.ts",
      ],
    ] as [string, string?][])
      expect(refusals(code, file), code).toEqual([HOME]);
  });

  it("let a view pass a data file's factory to the hook, and the data file make it", () => {
    for (const code of [
      `const shipment = useQuery(shipmentQuery(api, id, { live: true }));`,
      `const list = useInfiniteQuery(shipmentListQuery(api, filters));`,
      `const branches = useQuery(branchesQuery(api)).data ?? [];`,
      `void qc.invalidateQueries({ queryKey: keys.all });`,
      `void qc.prefetchQuery(shipmentQuery(api, id));`,
      `const m = useMutation({ mutationFn: (id: string) => unwrap(revoke(id)) });`,
    ])
      expect(refusals(code), code).toEqual([]);
    for (const [code, file] of [
      [
        `export const sessionQuery = () => queryOptions({ queryKey: S, queryFn: ({ signal }) => get(signal), staleTime: Infinity });`,
        "portal/src/app/data.ts",
      ],
      [
        `export function listQuery(api: Api, f: Filters) { return infiniteQueryOptions({ queryKey: keys.list(f), initialPageParam: "", queryFn: ({ pageParam, signal }) => get(api, f, pageParam, signal), getNextPageParam: (l) => l.next }); }`,
        DATA_FILE,
      ],
    ] as [string, string?][])
      expect(refusals(code, file), code).toEqual([]);
  });
});
