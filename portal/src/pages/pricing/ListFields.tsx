// A price list's own fields: its name, currency, the VAT its prices include and the price when no rule applies.
import type { Problems } from "../../api.ts";
import { Field } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { currencySign } from "./choices.ts";
import type { ListDraft } from "./pricing-draft.ts";

interface Props {
  draft: ListDraft;
  update: (patch: Partial<ListDraft>) => void;
  problems?: Problems;
}

export function ListFields({ draft, update, problems }: Props) {
  const w = useWords();
  const t = w.t.pricingPage;
  return (
    <div className="row">
      <Field label={t.name} path="/body/name" problems={problems}>
        {(p) => <input {...p} value={draft.name} onChange={(e) => update({ name: e.target.value })} />}
      </Field>
      <Field label={t.currency} path="/body/currency" problems={problems}>
        {(p) => (
          <input
            {...p}
            value={draft.currency}
            maxLength={3}
            autoCapitalize="characters"
            onChange={(e) => update({ currency: e.target.value.toUpperCase() })}
          />
        )}
      </Field>
      <Field label={t.vat} path="/body/tax" problems={problems}>
        {(p) => (
          <input {...p} inputMode="decimal" value={draft.tax} onChange={(e) => update({ tax: e.target.value })} />
        )}
      </Field>
      <Field
        label={t.defaultPrice(currencySign(w.locale, draft.currency))}
        path="/body/fallback_price"
        problems={problems}
      >
        {(p) => (
          <input
            {...p}
            inputMode="decimal"
            value={draft.fallback_price}
            onChange={(e) => update({ fallback_price: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}
