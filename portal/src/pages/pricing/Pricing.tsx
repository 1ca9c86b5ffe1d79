// Pricing: shipping settings, and one price list at a time (a tab per delivery method) in an editor beside a live
// preview of what checkout would answer with the draft, before it is saved. Unsaved edits are never lost by a
// stray click: leaving the page asks first, and so does switching to another price list.
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Confirm } from "../../parts/Confirm.tsx";
import { useLeaveGuard } from "../../parts/useLeaveGuard.ts";
import { lowerFirst, useWords } from "../../words/index.ts";
import { PriceListEditor } from "./PriceListEditor.tsx";
import { draftOf, newDraft } from "./pricing-draft.ts";
import { branchesQuery, priceListsQuery } from "./data.ts";
import { Settings } from "./Settings.tsx";
import type { ShippingMethodType } from "../../../../generated/api.ts";
import { useApi } from "../../app/session.ts";

const METHODS: ShippingMethodType[] = ["pickup", "home", "letter"];

export function Pricing(_: { rest: string[] }) {
  const w = useWords();
  const t = w.t.pricingPage;
  const api = useApi();
  const lists = useQuery(priceListsQuery(api));
  const branches = useQuery(branchesQuery(api)).data ?? [];
  const [method, setMethod] = useState<ShippingMethodType>("pickup");
  const [asked, setAsked] = useState<ShippingMethodType>();
  const [listDirty, setListDirty] = useState(false);
  const [settingsDirty, setSettingsDirty] = useState(false);
  useLeaveGuard(listDirty || settingsDirty);
  const onListDirty = useCallback((d: boolean) => setListDirty(d), []);
  const onSettingsDirty = useCallback((d: boolean) => setSettingsDirty(d), []);

  const open = (m: ShippingMethodType) => {
    if (m === method) return;
    if (listDirty) return setAsked(m);
    setMethod(m);
  };
  const list = lists.data?.items.find((l) => l.method === method);
  return (
    <section className="pricing">
      <hgroup>
        <h1>{t.title}</h1>
        <p>{t.about}</p>
      </hgroup>
      <Settings onDirty={onSettingsDirty} />
      <h2>{t.priceLists}</h2>
      <div role="group" aria-label={t.priceList} className="tabs">
        {METHODS.map((m) => (
          <button
            key={m}
            type="button"
            aria-pressed={m === method}
            className={m === method ? "" : "outline"}
            onClick={() => open(m)}
          >
            {w.t.methods[m]}
          </button>
        ))}
      </div>
      {!lists.data ? (
        <p aria-busy="true">{w.t.common.loading}</p>
      ) : (
        <PriceListEditor
          key={method}
          initial={list ? draftOf(list) : newDraft(method, w.t.methods[method])}
          branches={branches}
          onDirty={onListDirty}
        />
      )}
      {asked && (
        <Confirm
          title={t.openOther(lowerFirst(w.t.methods[asked]))}
          confirmLabel={t.discard}
          destructive
          onConfirm={() => {
            setListDirty(false);
            setMethod(asked);
            setAsked(undefined);
          }}
          onCancel={() => setAsked(undefined)}
        >
          <p>{t.unsavedList(lowerFirst(w.t.methods[method]))}</p>
        </Confirm>
      )}
    </section>
  );
}
