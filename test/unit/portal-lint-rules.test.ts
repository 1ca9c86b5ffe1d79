// The portal's house rules that hold issue 56 and issue 54 item 2 (eslint.config.js): one language per page (no
// words written into a view), one way from a failed request to words, one problem banner, TanStack Query's
// signal in every query's request, and one list of revocable keys and addresses. Each rule is shown to refuse what it
// is about and to let the right way pass, so that a selector that silently stopped matching fails here, not only in
// review.
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- the house rules are plain JavaScript (eslint.config.js), without types
import { ONE_BANNER, ONE_LANGUAGE, ONE_REVOCABLE_LIST, ONE_WAY } from "../../eslint.config.js";

const linter = new Linter({ configType: "flat" });
const config = [
  {
    files: ["**/*.tsx"],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      "no-restricted-syntax": ["error", ONE_LANGUAGE, ...(ONE_WAY as unknown[]), ONE_BANNER, ONE_REVOCABLE_LIST],
    },
  },
] as Linter.Config[];

/** The rule messages `code` gets, each by its first words. */
const refusals = (code: string) =>
  linter.verify(code, config, "portal/src/pages/x/View.tsx").map((m) => m.message.split(":")[0]);

const WORDS = "Words a person reads come from the catalogue (useWords().t, portal/src/words/<lang>/)";
const ONE_PATH = "A failed request is said one way";
const NOT_MESSAGE = "Say a failed request in the person's words, not the service's message";
const SIGNAL = "Pass TanStack Query's signal to the request (queryFn";
const BANNER = "The portal has one problem banner";
const REVOCABLE = "A list of keys or addresses that can be revoked is parts/RevocableTable.tsx";

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
    expect(refusals(`useQuery({ queryKey: K, queryFn: () => unwrap(api.GET("/x")) });`)).toEqual([SIGNAL]);
    expect(refusals(`useQuery({ queryKey: K, queryFn: async ({ pageParam }) => get(pageParam) });`)).toEqual([SIGNAL]);
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
      `useQuery({ queryKey: K, queryFn: ({ signal }) => unwrap(api.GET("/x", { signal })) });`,
      `useInfiniteQuery({ queryKey: K, queryFn: ({ pageParam, signal }) => get(pageParam, signal) });`,
    ])
      expect(refusals(code), code).toEqual([]);
  });
});
