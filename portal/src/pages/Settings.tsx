// Shipping settings: which methods are offered, their weight limits, countries served and pickup points shown.
import { useEffect, useState, type FormEvent } from "react";
import { problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";

interface Draft {
  letter: boolean;
  letterMax: string;
  home: boolean;
  homeMax: string;
  pickup: boolean;
  pickupMax: string;
  countries: string;
  limit: string;
}

const toDraft = (s: S["ShippingSettings"]): Draft => ({
  letter: s.letter.enabled,
  letterMax: String(s.letter.max_weight_g),
  home: s.home.enabled,
  homeMax: String(s.home.max_weight_g ?? ""),
  pickup: s.pickup.enabled,
  pickupMax: String(s.pickup.max_weight_g ?? ""),
  countries: s.countries.join(", "),
  limit: String(s.pickup_points_limit),
});
const num = (t: string) => (/^\s*\d+(\.\d+)?\s*$/.test(t) ? Number(t) : t) as number;

export function Settings({ api, onExpired }: { api: Api; onExpired: () => void }) {
  const [draft, setDraft] = useState<Draft>();
  const [problems, setProblems] = useState<Problems>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    void api.GET("/merchant/shipping_settings").then((r) => {
      if (r.response.status === 401) return onExpired();
      if (r.data) setDraft(toDraft(r.data));
    });
  }, [api, onExpired]);
  if (!draft) return <p aria-busy="true">Loading settings…</p>;
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const r = await api.PUT("/merchant/shipping_settings", {
      body: {
        letter: { enabled: draft.letter, max_weight_g: num(draft.letterMax) },
        home: { enabled: draft.home, ...(draft.homeMax.trim() && { max_weight_g: num(draft.homeMax) }) },
        pickup: { enabled: draft.pickup, ...(draft.pickupMax.trim() && { max_weight_g: num(draft.pickupMax) }) },
        countries: draft.countries
          .split(",")
          .map((c) => c.trim().toUpperCase())
          .filter(Boolean) as S["CountryCode"][],
        pickup_points_limit: num(draft.limit),
      },
    });
    if (r.response.status === 401) return onExpired();
    setProblems(problemsOf(r.error));
    if (r.data) {
      setDraft(toDraft(r.data));
      setSaved(true);
    }
  };
  return (
    <details>
      <summary>Shipping settings</summary>
      <form onSubmit={save} noValidate aria-label="Shipping settings">
        <div className="row">
          <label>
            <input
              type="checkbox"
              role="switch"
              checked={draft.pickup}
              onChange={(e) => set({ pickup: e.target.checked })}
            />{" "}
            Offer pickup
          </label>
          <label>
            <input
              type="checkbox"
              role="switch"
              checked={draft.home}
              onChange={(e) => set({ home: e.target.checked })}
            />{" "}
            Offer home delivery
          </label>
          <label>
            <input
              type="checkbox"
              role="switch"
              checked={draft.letter}
              onChange={(e) => set({ letter: e.target.checked })}
            />{" "}
            Offer letter
          </label>
        </div>
        <div className="row">
          <Field label="Pickup: max weight (g)" path="/body/pickup/max_weight_g" problems={problems}>
            {(p) => (
              <input
                {...p}
                inputMode="numeric"
                value={draft.pickupMax}
                onChange={(e) => set({ pickupMax: e.target.value })}
              />
            )}
          </Field>
          <Field label="Home: max weight (g)" path="/body/home/max_weight_g" problems={problems}>
            {(p) => (
              <input
                {...p}
                inputMode="numeric"
                value={draft.homeMax}
                onChange={(e) => set({ homeMax: e.target.value })}
              />
            )}
          </Field>
          <Field label="Letter: max weight (g)" path="/body/letter/max_weight_g" problems={problems}>
            {(p) => (
              <input
                {...p}
                inputMode="numeric"
                value={draft.letterMax}
                onChange={(e) => set({ letterMax: e.target.value })}
              />
            )}
          </Field>
        </div>
        <div className="row">
          <Field label="Countries served" path="/body/countries" problems={problems}>
            {(p) => (
              <input
                {...p}
                value={draft.countries}
                placeholder="FI, SE"
                onChange={(e) => set({ countries: e.target.value })}
              />
            )}
          </Field>
          <Field label="Pickup points offered" path="/body/pickup_points_limit" problems={problems}>
            {(p) => (
              <input {...p} inputMode="numeric" value={draft.limit} onChange={(e) => set({ limit: e.target.value })} />
            )}
          </Field>
        </div>
        <ProblemBanner
          problems={problems}
          shown={["/body/pickup", "/body/home", "/body/letter", "/body/countries", "/body/pickup_points_limit"]}
        />
        {saved && <p role="status">Settings saved.</p>}
        <button type="submit">Save settings</button>
      </form>
    </details>
  );
}
