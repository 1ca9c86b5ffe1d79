// Dates, money and quantities in the speaker's locale, through Intl (one format each, for the whole portal).
import { speakerOf, type Lang, type Speaker } from "./lang.ts";
import { kgFromGrams } from "../parts/weight.ts";

type Who = Lang | Speaker;
const NONE = "—";

export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
export const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formats.get(key) as F | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}
const numberFormat = (locale: string, options: Intl.NumberFormatOptions) =>
  cached(`n ${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** A moment (an API timestamp) as date and time: "31 Mar 2025, 14:05", "31.3.2025 klo 14.05". */
export function formatDate(who: Who, ts: string | number | Date | null | undefined): string {
  if (ts === null || ts === undefined || ts === "") return NONE;
  const date = ts instanceof Date ? ts : new Date(ts);
  if (Number.isNaN(date.getTime())) return NONE;
  const { locale } = speakerOf(who);
  return cached(
    `d ${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
  ).format(date);
}

/** A calendar date of the API (`2025-03-31`, as `expected_at_wh`), the same day wherever the browser is. */
export function formatDay(who: Who, day: string | null | undefined): string {
  if (!day) return NONE;
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return NONE;
  const { locale } = speakerOf(who);
  return cached(
    `day ${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }),
  ).format(date);
}

/** An amount of money: "€5.90", "5,90 €". */
export function formatMoney(who: Who, amount: number | null | undefined, currency = "EUR"): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return NONE;
  const { locale } = speakerOf(who);
  try {
    return numberFormat(locale, { style: "currency", currency }).format(amount);
  } catch {
    return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** A number with the locale's separators: "1,000,000", "1 000 000". */
export function formatNumber(who: Who, n: number, maximumFractionDigits = 3): string {
  return numberFormat(speakerOf(who).locale, { maximumFractionDigits }).format(n);
}

/** A number with a unit: "5,000 g", "25.5 %", "350 mm", "50 km". */
export function formatUnit(
  who: Who,
  n: number,
  unit: "gram" | "kilogram" | "kilometer" | "liter" | "millimeter" | "percent",
): string {
  return numberFormat(speakerOf(who).locale, { style: "unit", unit, maximumFractionDigits: 3 }).format(n);
}

/** A weight given in grams, in grams below a kilogram and in kilograms above: "850 g", "10 kg", "1.25 kg". */
export const formatWeight = (who: Who, grams: number): string =>
  Math.abs(kgFromGrams(grams)) < 1 ? formatUnit(who, grams, "gram") : formatUnit(who, kgFromGrams(grams), "kilogram");

/** A volume in litres: "2.5 l". */
export const formatVolume = (who: Who, litres: number): string => formatUnit(who, litres, "liter");

/** A calendar date of the API with its weekday, short: "Tue 1 Dec", "ti 1.12.". */
export function formatWeekdayDay(who: Who, day: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return NONE;
  const { locale } = speakerOf(who);
  return cached(
    `wd ${locale}`,
    () => new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }),
  )
    .format(date)
    .replace(",", "");
}

/** A weekday's short name: "Mon", "ma". `index` 0 is Monday. */
export function weekdayName(who: Who, index: number): string {
  const { locale } = speakerOf(who);
  // 2024-01-01 was a Monday.
  return cached(`wn ${locale}`, () => new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" })).format(
    new Date(Date.UTC(2024, 0, 1 + index)),
  );
}
