// One price list in a form, beside (wide) or before (narrow) the live preview of what checkout would answer with
// it. Messages stand next to their fields, all at once: the save's answer once saved, else the preview's check of
// the draft as you type. Save stays at hand in a bar at the foot of the form, above the preview; on a narrow screen,
// where the preview comes after the whole form, the bar also says the preview's answer for this price list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { useWords } from "../../words/index.ts";
import { ListFields } from "./ListFields.tsx";
import { Answer } from "./Options.tsx";
import { Preview } from "./Preview.tsx";
import { PriceChanges } from "./PriceChanges.tsx";
import { fieldPaths, inputOf, type ListDraft } from "./pricing-draft.ts";
import { PricingRules } from "./PricingRules.tsx";
import { detailsUnder, place } from "./problems.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { PREVIEW, PRICE_LISTS } from "./data.ts";

interface Props {
  initial: ListDraft;
  branches: string[];
  onDirty: (dirty: boolean) => void;
}

export function PriceListEditor({ initial, branches, onDirty }: Props) {
  const api = useApi();
  const qc = useQueryClient();
  const w = useWords();
  const t = w.t.pricingPage;
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(() => JSON.stringify(inputOf(initial)));
  const [notice, setNotice] = useState<string>();
  const [checked, setChecked] = useState<{ answer?: S["ShippingOptionsResult"]; error?: unknown }>({});
  const body = useMemo(() => inputOf(draft), [draft]);
  const dirty = JSON.stringify(body) !== saved;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const save = useMutation({
    mutationFn: (input: S["PriceListInput"]) =>
      draft.id
        ? unwrap(
            api.PUT("/merchant/price_lists/{price_list_id}", {
              params: { path: { price_list_id: draft.id } },
              body: input,
            }),
          )
        : unwrap(api.POST("/merchant/price_lists/_create", { body: input })),
    onSuccess: (list, input) => {
      setDraft((d) => ({ ...d, id: list.id }));
      setSaved(JSON.stringify(input));
      setNotice(t.savedList(list.name));
      void qc.invalidateQueries({ queryKey: PRICE_LISTS });
      void qc.invalidateQueries({ queryKey: PREVIEW });
    },
  });
  const update = (patch: Partial<ListDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setNotice(undefined);
    save.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(undefined);
    save.mutate(body);
  };

  // The save's answer once there is one; until then what the preview's check says of the draft.
  const form = draft.id ? "replacePriceList" : "createPriceList";
  const said = save.isError
    ? problemsOf(w, save.error, form)
    : problemsOf(w, detailsUnder(checked.error, "/body/price_lists/0"), form);
  const { problems } = place(said, fieldPaths(draft));
  const name = w.t.methods[draft.method];

  return (
    <div className="editor">
      <form onSubmit={submit} noValidate aria-label={t.listOf(name)}>
        {!draft.id && <p className="muted">{t.noListYet}</p>}
        <ListFields draft={draft} update={update} problems={problems} />
        <PricingRules
          rules={draft.pricing_rules}
          currency={draft.currency}
          onChange={(pricing_rules) => update({ pricing_rules })}
          problems={problems}
          branches={branches}
        />
        <PriceChanges
          rules={draft.modification_rules}
          currency={draft.currency}
          onChange={(modification_rules) => update({ modification_rules })}
          problems={problems}
          branches={branches}
        />
        <div className="savebar">
          {checked.answer && (
            <p role="status" aria-label={t.previewOfList} className="answer-now">
              <Answer answer={checked.answer} method={draft.method} />
            </p>
          )}
          {/* Until saved, the preview's check of the draft: its field messages, quietly, not its sentence. */}
          <ProblemBanner
            problems={said && { ...said, message: save.isError ? said.message : "" }}
            shown={fieldPaths(draft)}
            quiet={!save.isError}
          />
          {notice && <p role="status">{notice}</p>}
          {dirty && !save.isPending && !save.isError && <p className="muted">{t.unsaved}</p>}
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {t.saveList}
          </button>
        </div>
      </form>
      <aside>
        <Preview draft={draft} onChecked={setChecked} />
      </aside>
    </div>
  );
}
