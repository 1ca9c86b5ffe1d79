// Delivery estimates: the earliest and latest delivery dates of an order placed now, from the merchant's time zone
// and each method's delivery times (shipping settings), counted in moving days: the weekdays parcels move less the
// public holidays of the customer's country (date-holidays). Pure apart from the holiday tables it keeps.
import { createRequire } from "node:module";
import type HolidaysType from "date-holidays";
import { DateTime, IANAZone } from "luxon";
import type { components } from "../../generated/api.ts";
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf, fieldsOf, isNumber } from "../shared/loose.ts";

type Schemas = components["schemas"];
export type DeliveryTimes = Schemas["DeliveryTimes"];
export type DeliveryTimesByMethod = Schemas["DeliveryTimesByMethod"];
export type DeliveryEstimate = Schemas["DeliveryEstimate"];
type Weekday = Schemas["Weekday"];
type ShippingOptionsByMethod = Schemas["ShippingOptionsByMethod"];

/** luxon's weekday 1 (Monday) to 7 (Sunday), by index - 1. */
const WEEKDAYS: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const DEFAULT_MOVING_DAYS: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri"];

/** Each country's public holidays by year, as YYYY-MM-DD: a year's table is computed once per process. */
const holidayTables = new Map<string, Set<string>>();
const calendars = new Map<string, HolidaysType | null>();
let library: { Holidays: typeof HolidaysType; countries: Set<string> } | undefined;

/** The holiday library, loaded at the first estimate: its tables take a while to load, and most servers need none. */
function holidays(): NonNullable<typeof library> {
  if (!library) {
    const Holidays = createRequire(import.meta.url)("date-holidays") as typeof HolidaysType;
    library = { Holidays, countries: new Set(Object.keys(new Holidays().getCountries())) };
  }
  return library;
}

function publicHolidays(country: string, year: number): Set<string> {
  const key = `${country}:${year}`;
  let table = holidayTables.get(key);
  if (!table) {
    if (!calendars.has(country)) {
      // A country the library does not know has no holidays here: weekdays alone decide.
      const { Holidays, countries } = holidays();
      calendars.set(country, countries.has(country) ? new Holidays(country) : null);
    }
    const hd = calendars.get(country);
    table = new Set(
      (hd ? hd.getHolidays(year) : []).filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)),
    );
    holidayTables.set(key, table);
  }
  return table;
}

/** Whether `zone` is an IANA time zone name this process knows (Node's ICU, through luxon). */
export const isTimeZone = (zone: string): boolean => IANAZone.isValidZone(zone);

/**
 * The delivery estimate of an order placed at `now`: it counts from today in `zone` when today is a moving day and
 * the time there is before the cut-off, else from the next moving day; it leaves `handling_days` moving days later
 * and arrives `transit_days_min` to `transit_days_max` moving days after that.
 */
export function deliveryEstimate(times: DeliveryTimes, zone: string, now: Date, country: string): DeliveryEstimate {
  const local = DateTime.fromJSDate(now, { zone });
  const moving = new Set(times.moving_days ?? DEFAULT_MOVING_DAYS);
  // Calendar days as UTC midnights: adding a day never meets a daylight saving change.
  const isMovingDay = (d: DateTime) =>
    moving.has(WEEKDAYS[d.weekday - 1]!) && !publicHolidays(country, d.year).has(d.toISODate()!);
  const nextMovingDay = (d: DateTime) => {
    let next = d.plus({ days: 1 });
    while (!isMovingDay(next)) next = next.plus({ days: 1 });
    return next;
  };
  const after = (d: DateTime, days: number) => {
    let at = d;
    for (let i = 0; i < days; i++) at = nextMovingDay(at);
    return at;
  };
  const today = DateTime.utc(local.year, local.month, local.day);
  const [hh, mm] = times.cutoff.split(":").map(Number) as [number, number];
  const beforeCutoff = local.hour * 60 + local.minute < hh * 60 + mm;
  const counted = isMovingDay(today) && beforeCutoff ? today : nextMovingDay(today);
  const sent = after(counted, times.handling_days);
  return {
    earliest: after(sent, times.transit_days_min).toISODate()!,
    latest: after(sent, times.transit_days_max).toISODate()!,
  };
}

/** What estimates are computed from: the settings' zone and times, the customer's country and "now". */
export interface EstimateInput {
  time_zone: string | null;
  delivery_times: DeliveryTimesByMethod;
  country: string;
  now: Date;
}

/** The estimate of a method (and for pickup, of a point of `branch`), or undefined when the settings give none. */
export function estimateFor(
  input: EstimateInput,
  method: "letter" | "home" | "pickup",
  branch?: string,
): DeliveryEstimate | undefined {
  if (!input.time_zone) return undefined;
  const times =
    (method === "pickup" && branch !== undefined && input.delivery_times.pickup_branches?.[branch]) ||
    input.delivery_times[method];
  return times && deliveryEstimate(times, input.time_zone, input.now, input.country);
}

/**
 * The value rules of settings with delivery times (a replace, a preview's draft), under `base`: a time zone this
 * process knows, and each transit's most at least its least. `settings` may not have passed its schema.
 */
export function deliverySettingsProblems(settings: unknown, base: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const zone = fieldOf(settings, "time_zone");
  if (typeof zone === "string" && zone !== "" && !isTimeZone(zone))
    problems.push({ path: `${base}/time_zone`, message: "not a known IANA time zone", code: "format" });
  const byMethod = fieldsOf(fieldOf(settings, "delivery_times"));
  const check = (times: unknown, path: string) => {
    const [min, max] = [fieldOf(times, "transit_days_min"), fieldOf(times, "transit_days_max")];
    if (isNumber(min) && isNumber(max) && max < min)
      problems.push({
        path: `${path}/transit_days_max`,
        message: "must be at least transit_days_min",
        code: "minimum",
      });
  };
  for (const method of ["letter", "home", "pickup"] as const)
    check(fieldOf(byMethod, method), `${base}/delivery_times/${method}`);
  for (const [branch, times] of Object.entries(fieldsOf(fieldOf(byMethod, "pickup_branches")) ?? {}))
    check(times, `${base}/delivery_times/pickup_branches/${branch}`);
  return problems;
}

/** `options` with the estimate on every available letter and home option and every priced pickup point. */
export function withEstimates(options: ShippingOptionsByMethod, input: EstimateInput): ShippingOptionsByMethod {
  if (!input.time_zone) return options;
  const method = <T extends ShippingOptionsByMethod["letter"]>(m: "letter" | "home", option: T): T => {
    const estimate = option.available ? estimateFor(input, m) : undefined;
    return estimate ? { ...option, delivery_estimate: estimate } : option;
  };
  const { pickup } = options;
  return {
    letter: method("letter", options.letter),
    home: method("home", options.home),
    pickup: pickup.available
      ? {
          ...pickup,
          pickup_points: Object.fromEntries(
            Object.entries(pickup.pickup_points).map(([id, p]) => {
              const estimate = estimateFor(input, "pickup", p.branch);
              return [id, estimate ? { ...p, delivery_estimate: estimate } : p];
            }),
          ),
        }
      : pickup,
  };
}

/** The estimates draft delivery settings give an order placed at `now` (POST /merchant/delivery_dates/_preview). */
export function previewDeliveryDates(
  draft: Schemas["DeliveryDatesPreview"],
  country: Schemas["CountryCode"],
  now: Date,
): Schemas["DeliveryDatesPreviewResult"] {
  const { time_zone: zone, delivery_times: times } = draft;
  const estimate = (t: DeliveryTimes | undefined) => t && deliveryEstimate(t, zone, now, country);
  const branches = Object.entries(times.pickup_branches ?? {});
  const estimates: Schemas["DeliveryDatesPreviewResult"]["estimates"] = {
    ...(times.letter && { letter: estimate(times.letter) }),
    ...(times.home && { home: estimate(times.home) }),
    ...(times.pickup && { pickup: estimate(times.pickup) }),
    ...(branches.length > 0 && {
      pickup_branches: Object.fromEntries(branches.map(([b, t]) => [b, deliveryEstimate(t, zone, now, country)])),
    }),
  };
  return {
    ordered_at: DateTime.fromJSDate(now, { zone }).set({ millisecond: 0 }).toISO({ suppressMilliseconds: true })!,
    country,
    estimates,
  };
}
