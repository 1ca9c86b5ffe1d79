// The live preview: the draft price list priced for a customer exactly as checkout would
// (POST /shipping_options/_preview), asked again a moment after each change of the draft or the customer, never
// while nothing changes. Its check of the draft goes back to the editor, to stand next to the fields, and so does
// its answer, for the editor to keep the edited method's price in view where the preview is off screen (a phone).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { S } from "../../api.ts";
import { problemsOf } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { countries, currencySign, kilograms } from "./choices.ts";
import { Options } from "./Options.tsx";
import { inputOf, numberOrText, type ListDraft } from "./pricing-draft.ts";
import { detailsOutside, place } from "./problems.ts";
import { useSettled } from "./useSettled.ts";
import { previewQuery } from "./data.ts";
import { gramsFromKg } from "../../parts/weight.ts";

const CUSTOMER = ["/body/postalcode", "/body/country", "/body/weight", "/body/cart_value", "/body/tags"];

interface Props {
  draft: ListDraft;
  /** The preview's answer, or its error answer, once asked: for the editor to show what it says of the draft. */
  onChecked: (checked: { answer?: S["ShippingOptionsResult"]; error?: unknown }) => void;
}

export function Preview({ draft, onChecked }: Props) {
  const api = useApi();
  const w = useWords();
  const t = w.t.pricingPage;
  const [postalcode, setPostalcode] = useState("20780");
  const [country, setCountry] = useState<S["CountryCode"]>("FI");
  const [weight, setWeight] = useState("1");
  const [cart, setCart] = useState("");
  const [tags, setTags] = useState("");

  const kg = numberOrText(weight);
  const body: S["ShippingOptionsPreview"] = {
    postalcode: postalcode.trim(),
    country,
    ...(weight.trim() && { weight: (typeof kg === "number" ? gramsFromKg(kg) : weight) as number }),
    ...(cart.trim() && { cart_value: numberOrText(cart) as number }),
    ...(tags.trim() && {
      tags: tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    }),
    price_lists: [inputOf(draft)],
  };
  // A moment after the last keystroke: one request per change, not one per character.
  const asked = useSettled(JSON.stringify(body), 300);
  const preview = useQuery(
    previewQuery(
      api,
      useMemo(() => JSON.parse(asked) as typeof body, [asked]),
    ),
  );
  const report = useRef(onChecked);
  report.current = onChecked;
  useEffect(() => {
    if (!preview.isFetching) report.current(preview.isError ? { error: preview.error } : { answer: preview.data });
  }, [preview.isFetching, preview.isError, preview.error, preview.data]);

  const said = problemsOf(w, detailsOutside(preview.error, ["/body/price_lists"]), "previewShippingOptions");
  const { problems: mine } = place(said, CUSTOMER);
  const answer = !preview.isError ? preview.data : undefined;
  return (
    <section aria-label={t.preview} aria-busy={preview.isFetching} className="preview">
      <h3>{t.preview}</h3>
      <p className="muted">{t.previewAbout}</p>
      <div className="row">
        <Field label={t.postalCode} path="/body/postalcode" problems={mine}>
          {(p) => <input {...p} value={postalcode} onChange={(e) => setPostalcode(e.target.value)} />}
        </Field>
        <Field label={t.country} path="/body/country" problems={mine}>
          {(p) => (
            <select {...p} value={country} onChange={(e) => setCountry(e.target.value as S["CountryCode"])}>
              {countries(w).map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="row">
        <Field label={t.weight(kilograms(w.locale).sign)} path="/body/weight" problems={mine}>
          {(p) => <input {...p} inputMode="decimal" value={weight} onChange={(e) => setWeight(e.target.value)} />}
        </Field>
        <Field label={t.orderValue(currencySign(w.locale, "EUR"))} path="/body/cart_value" problems={mine}>
          {(p) => <input {...p} inputMode="decimal" value={cart} onChange={(e) => setCart(e.target.value)} />}
        </Field>
        <Field label={t.tags} path="/body/tags" problems={mine}>
          {(p) => <input {...p} value={tags} placeholder={t.tagsExample} onChange={(e) => setTags(e.target.value)} />}
        </Field>
      </div>
      <ProblemBanner problems={said} shown={CUSTOMER} />
      {answer && <Options answer={answer} first={draft.method} />}
    </section>
  );
}
