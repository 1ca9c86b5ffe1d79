// The live preview: the draft price list priced for a customer exactly as checkout would, with the rule trace,
// re-asked (debounced) on every change of the draft or the customer.
import { useEffect, useRef, useState } from "react";
import { problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { inputOf, type ListDraft } from "./pricing-draft.ts";

type Result = S["ShippingOptionsResult"];
const LABELS = { pickup: "Pickup", home: "Home delivery", letter: "Letter" } as const;
const money = (p: S["Price"]) => `${p.gross.toFixed(2)} ${p.currency}`;

interface Props {
  api: Api;
  draft: ListDraft;
  /** The preview's check of the draft, for the editor to show next to its fields. */
  onProblems: (p: Problems | undefined) => void;
}

export function Preview({ api, draft, onProblems }: Props) {
  const [postalcode, setPostalcode] = useState("20780");
  const [country, setCountry] = useState("FI");
  const [weight, setWeight] = useState("1000");
  const [cart, setCart] = useState("");
  const [tags, setTags] = useState("");
  const [answer, setAnswer] = useState<Result>();
  const [problems, setProblems] = useState<Problems>();
  const [busy, setBusy] = useState(false);
  // The latest callback without re-asking the preview when only the parent re-rendered.
  const report = useRef(onProblems);
  report.current = onProblems;

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(async () => {
      setBusy(true);
      const num = (t: string) => (/^\s*\d+(\.\d+)?\s*$/.test(t) ? Number(t) : t) as number;
      const r = await api
        .POST("/shipping_options/_preview", {
          body: {
            postalcode: postalcode.trim(),
            country: country.trim().toUpperCase() as S["CountryCode"],
            ...(weight.trim() && { weight: num(weight) }),
            ...(cart.trim() && { cart_value: num(cart) }),
            ...(tags.trim() && {
              tags: tags
                .split(",")
                .map((t) => t.trim())
                .filter(Boolean),
            }),
            price_lists: [inputOf(draft)],
          },
        })
        .catch(() => undefined);
      if (stale) return;
      setBusy(false);
      if (!r) return setProblems({ message: "The service cannot be reached.", fields: {} });
      const p = problemsOf(r.error);
      setProblems(p);
      report.current(p);
      if (r.data) setAnswer(r.data as Result);
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [api, draft, postalcode, country, weight, cart, tags]);

  const customerPaths = ["/body/postalcode", "/body/country", "/body/weight", "/body/cart_value", "/body/tags"];
  return (
    <section aria-label="Preview" aria-busy={busy}>
      <h3>Preview</h3>
      <p className="muted">What checkout would answer with this draft, before you save it.</p>
      <div className="row">
        <Field label="Postal code" path="/body/postalcode" problems={problems}>
          {(p) => <input {...p} value={postalcode} onChange={(e) => setPostalcode(e.target.value)} />}
        </Field>
        <Field label="Country" path="/body/country" problems={problems}>
          {(p) => <input {...p} value={country} maxLength={2} onChange={(e) => setCountry(e.target.value)} />}
        </Field>
      </div>
      <div className="row">
        <Field label="Weight (g)" path="/body/weight" problems={problems}>
          {(p) => <input {...p} inputMode="numeric" value={weight} onChange={(e) => setWeight(e.target.value)} />}
        </Field>
        <Field label="Cart value" path="/body/cart_value" problems={problems}>
          {(p) => <input {...p} inputMode="decimal" value={cart} onChange={(e) => setCart(e.target.value)} />}
        </Field>
        <Field label="Tags" path="/body/tags" problems={problems}>
          {(p) => <input {...p} value={tags} placeholder="vip, b2b" onChange={(e) => setTags(e.target.value)} />}
        </Field>
      </div>
      {problems && (
        <ProblemBanner
          problems={{
            message: "The preview cannot be computed: fix the fields marked in the editor.",
            fields: Object.fromEntries(
              Object.entries(problems.fields).filter(
                ([k]) => !k.startsWith("/body/price_lists") && !customerPaths.includes(k),
              ),
            ),
          }}
        />
      )}
      {answer && !problems && (
        <div role="list" aria-label="Shipping options">
          {(["pickup", "home", "letter"] as const).map((m) => (
            <OptionView key={m} method={m} answer={answer} />
          ))}
        </div>
      )}
    </section>
  );
}

function OptionView({ method, answer }: { method: keyof typeof LABELS; answer: Result }) {
  const option = answer.options[method];
  // A trace names rules by position in the method's list, and facts by name in the answer's facts.
  const trace = (ref: S["PriceTraceRef"] | undefined, branch: string | null) => {
    const t = ref && answer.explanation?.traces[ref.trace];
    const list = answer.explanation?.price_lists[method];
    return t && list && <Trace trace={t} list={list} facts={{ ...answer.facts, "pup.branch": branch }} />;
  };
  if (!option.available) {
    return (
      <article className="option" role="listitem" aria-label={LABELS[method]}>
        <strong>{LABELS[method]}</strong>: not available <small className="muted">({option.reason})</small>
        <p className="trace">{option.explanation?.detail}</p>
      </article>
    );
  }
  if ("price" in option) {
    return (
      <article className="option" role="listitem" aria-label={LABELS[method]}>
        <strong>{LABELS[method]}</strong>: <span className="price">{money(option.price)}</span>
        {trace(option.explanation, answer.facts["pup.branch"])}
      </article>
    );
  }
  const points = Object.values(option.pickup_points);
  return (
    <article className="option" role="listitem" aria-label={LABELS[method]}>
      <strong>{LABELS[method]}</strong>: {points.length} pickup points
      <ul>
        {points.slice(0, 4).map((p) => (
          <li key={p.id}>
            {p.name} <small className="muted">({p.branch})</small>: <span className="price">{money(p.price)}</span>
            {trace(p.explanation, p.branch)}
          </li>
        ))}
      </ul>
    </article>
  );
}

type Rule = { description?: string; criteria: S["RuleCriterion"][] };

function ruleName(kind: string, index: number, rule: Rule | undefined) {
  return `${kind} ${index + 1}${rule?.description ? ` “${rule.description}”` : ""}`;
}

function failedText(check: S["RuleCheck"], rule: Rule | undefined, facts: S["ShippingFacts"]) {
  const c = check.failed_criterion === null ? undefined : rule?.criteria[check.failed_criterion];
  if (!c) return "";
  return `${c.fact} ${c.op} ${JSON.stringify(c.value)} is false (it is ${JSON.stringify(facts[c.fact])})`;
}

/** Why this price: the rule that set the base price, and what each modification did. */
export function Trace({
  trace,
  list,
  facts,
}: {
  trace: S["PriceTrace"];
  list: S["ExplainedPriceList"];
  facts: S["ShippingFacts"];
}) {
  const base = trace.base.rule_index === null ? undefined : trace.base.rule_index;
  return (
    <details className="trace">
      <summary>Why this price</summary>
      <ul>
        <li>
          Base {trace.base.gross.toFixed(2)}:{" "}
          {base !== undefined
            ? `${ruleName("pricing rule", base, list.pricing_rules[base])} matched`
            : "no pricing rule matched, so the fallback price"}
        </li>
        {trace.pricing_rules
          .filter((r) => !r.matched)
          .map((r) => (
            <li key={`p${r.index}`} className="skipped">
              {ruleName("Pricing rule", r.index, list.pricing_rules[r.index])} skipped:{" "}
              {failedText(r, list.pricing_rules[r.index], facts)}
            </li>
          ))}
        {trace.modification_rules.map((r) => (
          <li key={`m${r.index}`} className={r.matched ? "" : "skipped"}>
            {ruleName("Modification", r.index, list.modification_rules[r.index])}:{" "}
            {r.matched
              ? `applied, now ${r.gross_after?.toFixed(2)}`
              : `not applied: ${failedText(r, list.modification_rules[r.index], facts)}`}
          </li>
        ))}
        {trace.rule_checks_omitted > 0 && (
          <li className="muted">{trace.rule_checks_omitted} more rule checks not shown</li>
        )}
      </ul>
    </details>
  );
}
