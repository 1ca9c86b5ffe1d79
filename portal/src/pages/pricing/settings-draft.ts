// The shipping settings form's draft: weight limits as typed in kilograms (the API keeps grams), and its conversion
// to the API's ShippingSettingsInput and back. What does not parse is sent as typed, for the API to name.
import type { S } from "../../api.ts";
import { DATE_FIELDS, datesDraftOf, deliveryTimesOf, type DatesDraft } from "./dates-draft.ts";
import { numberOrText } from "./pricing-draft.ts";
import type { ShippingMethodType } from "../../../../generated/api.ts";
import { kgFromGrams, wholeGramsFromKg } from "../../parts/weight.ts";

export const METHODS: ShippingMethodType[] = ["pickup", "home", "letter"];
export interface Draft {
  enabled: Record<ShippingMethodType, boolean>;
  /** Kilograms as typed; empty: no limit (home and pickup). */
  max: Record<ShippingMethodType, string>;
  countries: string[];
  limit: string;
  /** pickup.max_distance_km as typed. */
  distance: string;
  dates: DatesDraft;
}

const kg = (g: number | undefined) => (g === undefined ? "" : String(kgFromGrams(g)));
const grams = (text: string) => {
  const n = numberOrText(text);
  return (typeof n === "number" ? wholeGramsFromKg(n) : text) as number;
};
export const draftOf = (s: S["ShippingSettings"]): Draft => ({
  enabled: { pickup: s.pickup.enabled, home: s.home.enabled, letter: s.letter.enabled },
  max: { pickup: kg(s.pickup.max_weight_g), home: kg(s.home.max_weight_g), letter: kg(s.letter.max_weight_g) },
  countries: s.countries,
  limit: String(s.pickup_points_limit),
  distance: String(s.pickup.max_distance_km),
  dates: datesDraftOf(s.time_zone, s.delivery_times),
});
export const inputOf = (d: Draft): S["ShippingSettingsInput"] => {
  const method = (m: ShippingMethodType) => ({
    enabled: d.enabled[m],
    ...(d.max[m].trim() && { max_weight_g: grams(d.max[m]) }),
  });
  return {
    letter: { enabled: d.enabled.letter, max_weight_g: grams(d.max.letter) },
    home: method("home"),
    pickup: { ...method("pickup"), max_distance_km: numberOrText(d.distance) as number },
    countries: d.countries as S["CountryCode"][],
    pickup_points_limit: numberOrText(d.limit) as number,
    time_zone: d.dates.zone || null,
    delivery_times: deliveryTimesOf(d.dates),
  };
};
export const FIELDS = [
  ...METHODS.map((m) => `/body/${m}/max_weight_g`),
  "/body/pickup/max_distance_km",
  "/body/countries",
  "/body/pickup_points_limit",
  ...DATE_FIELDS,
];
