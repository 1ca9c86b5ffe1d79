// Shipping settings: which delivery methods are offered, their weight limits (in kg; the API keeps grams), the
// countries served (chosen from the list), how far and how many pickup points checkout offers and the delivery dates.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { ChoiceList } from "./ChoiceList.tsx";
import { DeliveryDates } from "./DeliveryDates.tsx";
import { countries, kilograms } from "./choices.ts";
import { place } from "./problems.ts";
import { PREVIEW, SETTINGS, settingsQuery } from "./data.ts";
import { draftOf, FIELDS, inputOf, METHODS, type Draft } from "./settings-draft.ts";

export function Settings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const api = useApi();
  const settings = useQuery(settingsQuery(api));
  const { t } = useWords();
  if (!settings.data) return <p aria-busy="true">{t.pricingPage.loadingSettings}</p>;
  return <SettingsForm initial={settings.data} onDirty={onDirty} />;
}

function SettingsForm({ initial, onDirty }: { initial: S["ShippingSettings"]; onDirty: (dirty: boolean) => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const w = useWords();
  const t = w.t.pricingPage;
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [saved, setSaved] = useState(() => JSON.stringify(inputOf(draftOf(initial))));
  const dirty = JSON.stringify(inputOf(draft)) !== saved;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const save = useMutation({
    mutationFn: (body: S["ShippingSettingsInput"]) => unwrap(api.PUT("/merchant/shipping_settings", { body })),
    onSuccess: (s) => {
      setDraft(draftOf(s));
      setSaved(JSON.stringify(inputOf(draftOf(s))));
      qc.setQueryData(SETTINGS, s);
      void qc.invalidateQueries({ queryKey: PREVIEW });
    },
  });
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    save.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(inputOf(draft));
  };
  const said = problemsOf(w, save.error, "replaceShippingSettings");
  const { problems } = place(said, FIELDS);
  const unit = kilograms(w.locale).sign;

  return (
    <details>
      <summary>{t.settings}</summary>
      <form onSubmit={submit} noValidate aria-label={t.settings}>
        <div className="methods">
          {METHODS.map((m) => (
            <fieldset key={m}>
              <legend>{w.t.methods[m]}</legend>
              <label>
                <input
                  type="checkbox"
                  role="switch"
                  checked={draft.enabled[m]}
                  onChange={(e) => set({ enabled: { ...draft.enabled, [m]: e.target.checked } })}
                />{" "}
                {t.offered}
              </label>
              <Field label={t.weightLimit(unit)} path={`/body/${m}/max_weight_g`} problems={problems}>
                {(p) => (
                  <input
                    {...p}
                    inputMode="decimal"
                    value={draft.max[m]}
                    placeholder={m === "letter" ? undefined : t.noLimit}
                    onChange={(e) => set({ max: { ...draft.max, [m]: e.target.value } })}
                  />
                )}
              </Field>
              {m === "pickup" && (
                <Field label={w.t.pickupMaxDistance} path="/body/pickup/max_distance_km" problems={problems}>
                  {(p) => (
                    <input
                      {...p}
                      inputMode="numeric"
                      value={draft.distance}
                      onChange={(e) => set({ distance: e.target.value })}
                    />
                  )}
                </Field>
              )}
            </fieldset>
          ))}
        </div>
        <div className="row">
          <ChoiceList
            legend={t.countries}
            options={countries(w)}
            chosen={draft.countries}
            onChange={(chosen) => set({ countries: chosen })}
            message={problems?.fields["/body/countries"]}
          />
          <Field label={t.pickupPoints} path="/body/pickup_points_limit" problems={problems}>
            {(p) => (
              <input {...p} inputMode="numeric" value={draft.limit} onChange={(e) => set({ limit: e.target.value })} />
            )}
          </Field>
        </div>
        <DeliveryDates
          draft={draft.dates}
          onChange={(dates) => set({ dates })}
          country={(draft.countries[0] ?? "FI") as S["CountryCode"]}
          problems={problems}
        />
        <ProblemBanner problems={said} shown={FIELDS} />
        {save.isSuccess && <p role="status">{t.settingsSaved}</p>}
        <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
          {t.saveSettings}
        </button>
      </form>
    </details>
  );
}
