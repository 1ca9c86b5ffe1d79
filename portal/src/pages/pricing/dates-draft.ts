// The delivery dates part of the shipping settings draft: each method's times as typed (switched on or not), and
// their conversion to the API's DeliveryTimesByMethod and back. What does not parse is sent as typed, for the API
// to name. A pickup branch's own times are kept as read: the form does not edit them.
import type { S } from "../../api.ts";
import { numberOrText } from "./pricing-draft.ts";

export type DatedMethod = "pickup" | "home" | "letter";
export const DATED_METHODS: DatedMethod[] = ["pickup", "home", "letter"];
export const WEEKDAYS: S["Weekday"][] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const WORKDAYS: S["Weekday"][] = ["mon", "tue", "wed", "thu", "fri"];

export interface TimesDraft {
  on: boolean;
  handling: string;
  min: string;
  max: string;
  cutoff: string;
  days: S["Weekday"][];
}
export interface DatesDraft {
  /** Empty: no time zone, no dates. */
  zone: string;
  times: Record<DatedMethod, TimesDraft>;
  branches: S["DeliveryTimesByMethod"]["pickup_branches"];
}

const OFF: TimesDraft = { on: false, handling: "1", min: "1", max: "2", cutoff: "14:00", days: WORKDAYS };
const timesDraft = (t: S["DeliveryTimes"] | undefined): TimesDraft =>
  t
    ? {
        on: true,
        handling: String(t.handling_days),
        min: String(t.transit_days_min),
        max: String(t.transit_days_max),
        cutoff: t.cutoff,
        days: t.moving_days ?? WORKDAYS,
      }
    : OFF;

export const datesDraftOf = (zone: string | null, times: S["DeliveryTimesByMethod"]): DatesDraft => ({
  zone: zone ?? "",
  times: { pickup: timesDraft(times.pickup), home: timesDraft(times.home), letter: timesDraft(times.letter) },
  branches: times.pickup_branches,
});

const timesOf = (d: TimesDraft): S["DeliveryTimes"] => ({
  handling_days: numberOrText(d.handling) as number,
  transit_days_min: numberOrText(d.min) as number,
  transit_days_max: numberOrText(d.max) as number,
  cutoff: d.cutoff,
  // Monday to Friday is the API's default: left out, as a merchant who never touched the days would send it.
  ...(d.days.join() !== WORKDAYS.join() && { moving_days: WEEKDAYS.filter((w) => d.days.includes(w)) }),
});

export function deliveryTimesOf(d: DatesDraft): S["DeliveryTimesByMethod"] {
  const out: S["DeliveryTimesByMethod"] = {};
  for (const m of DATED_METHODS) if (d.times[m].on) out[m] = timesOf(d.times[m]);
  if (d.branches) out.pickup_branches = d.branches;
  return out;
}

export const DATE_FIELDS = [
  "/body/time_zone",
  ...DATED_METHODS.flatMap((m) =>
    ["handling_days", "transit_days_min", "transit_days_max", "cutoff", "moving_days"].map(
      (f) => `/body/delivery_times/${m}/${f}`,
    ),
  ),
];
