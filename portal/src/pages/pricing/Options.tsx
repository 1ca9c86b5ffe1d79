// What checkout would answer, per delivery method: its price with why, or why it is not offered; for pickup, the
// nearest points with their chain and price.
import type { S } from "../../api.ts";
import { useWords } from "../../words/index.ts";
import { Trace } from "./Trace.tsx";

type Result = S["ShippingOptionsResult"];
type Method = S["ShippingMethodType"];
const METHODS: Method[] = ["pickup", "home", "letter"];
/** Pickup points shown: the nearest, as checkout lists them. */
const SHOWN = 5;

export function Options({ answer }: { answer: Result }) {
  return (
    <ul className="options" aria-label="Shipping options">
      {METHODS.map((m) => (
        <Option key={m} method={m} answer={answer} />
      ))}
    </ul>
  );
}

function Option({ method, answer }: { method: Method; answer: Result }) {
  const w = useWords();
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
        <strong lang={w.lang}>{name}</strong>: <span className="muted">not offered.</span>{" "}
        <span lang={w.lang}>{w.t.unavailable[option.reason]}</span>
      </li>
    );
  }
  if ("price" in option) {
    return (
      <li className="option" aria-label={name}>
        <strong lang={w.lang}>{name}</strong>:{" "}
        <span className="price">{w.money(option.price.gross, option.price.currency)}</span>
        {trace(option.explanation, option.price, answer.facts["pup.branch"])}
      </li>
    );
  }
  const points = Object.values(option.pickup_points);
  return (
    <li className="option" aria-label={name}>
      <strong lang={w.lang}>{name}</strong>: {points.length === 1 ? "1 pickup point" : `${points.length} pickup points`}
      {points.length > SHOWN && <span className="muted"> (the nearest {SHOWN} shown)</span>}
      <ul className="points">
        {points.slice(0, SHOWN).map((p) => (
          <li key={p.id}>
            {p.name}{" "}
            <small className="muted" lang={w.lang}>
              ({w.branch(p.branch)})
            </small>
            : <span className="price">{w.money(p.price.gross, p.price.currency)}</span>
            {trace(p.explanation, p.price, p.branch)}
          </li>
        ))}
      </ul>
    </li>
  );
}
