// The lists a rule's value is chosen from where the set is known, and the units values are shown in. Countries are
// the spec's CountryCode (the compiler checks this list against it both ways), named by the words catalogue; units
// and currency signs come from Intl in the reader's locale.
import type { S } from "../../api.ts";
import type { Words } from "../../words/index.ts";
import type { ShippingFactName } from "../../../../generated/api.ts";

const C0 = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ";
const C1 = "BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM";
const C2 = "DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS";
const C3 = "GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN";
const C4 = "KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ";
const C5 = "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM";
const C6 = "PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV";
const C7 = "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI";
const C8 = "VN VU WF WS XK YE YT ZA ZM ZW";
const CODES = `${C0} ${C1} ${C2} ${C3} ${C4} ${C5} ${C6} ${C7} ${C8}` as const;
type Split<T extends string, Acc = never> = T extends `${infer H} ${infer R}` ? Split<R, Acc | H> : Acc | T;
type Listed = Split<typeof CODES>;
// Each is `true` only while the list and the spec's enum hold the same codes.
const _noneExtra: [Exclude<Listed, S["CountryCode"]>] extends [never] ? true : false = true;
const _noneMissing: [Exclude<S["CountryCode"], Listed>] extends [never] ? true : false = true;

/** Every country the API knows, by its name in the reader's language, sorted by that name. */
export function countries(w: Words): { value: S["CountryCode"]; label: string }[] {
  const collator = new Intl.Collator(w.locale);
  return (CODES.split(" ") as S["CountryCode"][])
    .map((value) => ({ value, label: w.country(value) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** How a numeric fact is shown in the editor: its unit's sign (pricing-draft.ts converts a weight's value). */
export interface Unit {
  sign: string;
}

const unitSign = (locale: string, unit: string) =>
  new Intl.NumberFormat(locale, { style: "unit", unit }).formatToParts(1).find((p) => p.type === "unit")?.value ?? unit;

/** The sign of a currency in the reader's locale: "€" for EUR, "SEK" or "kr" for SEK. */
export function currencySign(locale: string, currency: string): string {
  try {
    return (
      new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(1).find((p) => p.type === "currency")
        ?.value ?? currency
    );
  } catch {
    return currency;
  }
}

/** Weights in kilograms (the API's grams), the order's value in euros, volumes in litres; other numbers bare. */
export function unitOf(fact: ShippingFactName, locale: string): Unit | undefined {
  switch (fact) {
    case "order.total_weight":
      return { sign: unitSign(locale, "kilogram") };
    case "order.total_eur":
      return { sign: currencySign(locale, "EUR") };
    case "order.total_volume":
      return { sign: unitSign(locale, "liter") };
    default:
      return undefined;
  }
}

/** Kilograms, as weights are shown outside rules too (the preview's weight, the settings' limits). */
export const kilograms = (locale: string): Unit => ({ sign: unitSign(locale, "kilogram") });
