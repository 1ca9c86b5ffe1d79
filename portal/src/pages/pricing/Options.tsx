// What checkout would answer, per delivery method: its price with why, or why it is not offered; for pickup, the
// nearest points with their chain and price. The method whose price list is being edited comes first, so that the
// answer to an edit is the first thing the preview shows; Answer says it in one line, for a bar beside the form.
import type { S } from "../../api.ts";
import { useWords } from "../../words/index.ts";
import { Trace } from "./Trace.tsx";
import type { ShippingMethodType, ShippingOptionsResult } from "../../../../generated/api.ts";

const METHODS: ShippingMethodType[] = ["pickup", "home", "letter"];
/** Pickup points shown: the nearest, as checkout lists them. */
const SHOWN = 5;

/** The delivery methods in the preview's order: `first` (the edited price list's), then the others as checkout lists them. */
const ordered = (first: ShippingMethodType) => [first, ...METHODS.filter((m) => m !== first)];

export function Options({ answer, first }: { answer: ShippingOptionsResult; first: ShippingMethodType }) {
  const { t } = useWords();
  return (
    <ul className="options" aria-label={t.pricingPage.options}>
      {ordered(first).map((m) => (
        <Option key={m} method={m} answer={answer} />
      ))}
    </ul>
  );
}

function Option({ method, answer }: { method: ShippingMethodType; answer: ShippingOptionsResult }) {
  const w = useWords();
  const t = w.t.pricingPage;
  const name = w.t.methods[method];
  const option = answer.options[method];
  const list = answer.explanation?.price_lists[method];
  const trace = (ref: S["PriceTraceRef"] | undefined, price: S["Price"], branch: string | null) => {
    const t = ref && answer.explanation?.traces[ref.trace];
    return (
      t &&
      list && (
        <Trace trace={t} list={list} facts={{ ...answer.facts, "pup.branch": branch }} currency={price.currency} />
      )
    );
  };
  if (!option.available) {
    return (
      <li className="option" aria-label={name}>
        <strong>{name}</strong>: <span className="muted">{t.notOffered}</span>{" "}
        <span>{w.t.unavailable[option.reason]}</span>
      </li>
    );
  }
  if ("price" in option) {
    return (
      <li className="option" aria-label={name}>
        <strong>{name}</strong>: <span className="price">{w.money(option.price.gross, option.price.currency)}</span>
        {trace(option.explanation, option.price, answer.facts["pup.branch"])}
      </li>
    );
  }
  const points = Object.values(option.pickup_points);
  return (
    <li className="option" aria-label={name}>
      <strong>{name}</strong>: {t.points(points.length)}
      {points.length > SHOWN && <span className="muted">{t.nearestShown(SHOWN)}</span>}
      <ul className="points">
        {points.slice(0, SHOWN).map((p) => (
          <li key={p.id}>
            {p.name} <small className="muted">({w.branch(p.branch)})</small>:{" "}
            <span className="price">{w.money(p.price.gross, p.price.currency)}</span>
            {trace(p.explanation, p.price, p.branch)}
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * One method's answer in a line: its price, why it is not offered, or for pickup the price at the nearest point of
 * each chain (what a rule about a chain changes), nearest first.
 */
export function Answer({ answer, method }: { answer: ShippingOptionsResult; method: ShippingMethodType }) {
  const w = useWords();
  const option = answer.options[method];
  const said = (() => {
    if (!option.available) return <span>{`${w.t.pricingPage.notOffered} ${w.t.unavailable[option.reason]}`}</span>;
    if ("price" in option) return <span className="price">{w.money(option.price.gross, option.price.currency)}</span>;
    const nearest = new Map<string, S["Price"]>();
    for (const p of Object.values(option.pickup_points)) if (!nearest.has(p.branch)) nearest.set(p.branch, p.price);
    return [...nearest].map(([branch, price], i) => (
      <span key={branch}>
        {i > 0 && ", "}
        <span>{w.branch(branch)}</span> {w.money(price.gross, price.currency)}
      </span>
    ));
  })();
  return (
    <>
      <strong>{w.t.methods[method]}</strong>: {said}
    </>
  );
}
