// The delivery dates part of the shipping settings: the warehouse's time zone and, per method, how long a parcel
// takes, in plain words, with what an order placed now would be told (POST /merchant/delivery_dates/_preview,
// asked a moment after each change: the server owns the calendar and the public holidays).
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { S } from "../../api.ts";
import { problemsOf } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field } from "../../parts/fields.tsx";
import { formatWeekdayDay, useWords, weekdayName } from "../../words/index.ts";
import type { Problems } from "../../api.ts";
import {
  DATE_FIELDS,
  DATED_METHODS,
  deliveryTimesOf,
  WEEKDAYS,
  type DatedMethod,
  type DatesDraft,
} from "./dates-draft.ts";
import { place } from "./problems.ts";
import { useSettled } from "./useSettled.ts";
import { datesPreviewQuery } from "./data.ts";

/** The zones the browser knows, the merchant's own first when the browser does not list it. */
function zones(current: string): string[] {
  const known = Intl.supportedValuesOf("timeZone");
  return current && !known.includes(current) ? [current, ...known] : known;
}

interface Props {
  draft: DatesDraft;
  onChange: (d: DatesDraft) => void;
  /** The customer the preview is for: the first country served. */
  country: S["CountryCode"];
  problems?: Problems;
}

export function DeliveryDates({ draft, onChange, country, problems: saved }: Props) {
  const w = useWords();
  const tp = w.t.pricingPage;
  const setTimes = (m: DatedMethod, patch: Partial<DatesDraft["times"][DatedMethod]>) =>
    onChange({ ...draft, times: { ...draft.times, [m]: { ...draft.times[m], ...patch } } });
  const preview = useDatesPreview(draft, country);
  // What the preview found wrong is marked as you type; after a save, what the save said.
  const problems = saved ?? place(problemsOf(w, preview.error, "previewDeliveryDates"), DATE_FIELDS).problems;
  return (
    <fieldset className="delivery-dates">
      <legend>{tp.deliveryDates}</legend>
      <p className="muted">{tp.datesAbout}</p>
      <Field label={tp.timeZone} path="/body/time_zone" problems={problems}>
        {(p) => (
          <select {...p} value={draft.zone} onChange={(e) => onChange({ ...draft, zone: e.target.value })}>
            <option value="">{tp.noDates}</option>
            {zones(draft.zone).map((z) => (
              // A zone's name is the time zone database's (its places' English names), in no language of ours.
              <option key={z} value={z} translate="no">
                {z.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        )}
      </Field>
      {draft.zone && (
        <div className="methods">
          {DATED_METHODS.map((m) => {
            const t = draft.times[m];
            const at = `/body/delivery_times/${m}`;
            const name = w.t.methods[m];
            return (
              <fieldset key={m} aria-label={tp.methodDates(name)}>
                <legend>{name}</legend>
                <label>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={t.on}
                    onChange={(e) => setTimes(m, { on: e.target.checked })}
                  />{" "}
                  {tp.showDates}
                </label>
                {t.on && (
                  <>
                    {(
                      [
                        ["cutoff", "cutoff", tp.cutoff],
                        ["handling", "handling_days", tp.handling],
                        ["min", "transit_days_min", tp.transitMin],
                        ["max", "transit_days_max", tp.transitMax],
                      ] as const
                    ).map(([key, field, label]) => (
                      <Field key={key} label={label} path={`${at}/${field}`} problems={problems}>
                        {(p) => (
                          <input
                            {...p}
                            {...(key === "cutoff" ? { type: "time" } : { inputMode: "numeric" })}
                            value={t[key]}
                            onChange={(e) => setTimes(m, { [key]: e.target.value })}
                          />
                        )}
                      </Field>
                    ))}
                    <fieldset className="weekdays">
                      <legend>{tp.movingDays}</legend>
                      {WEEKDAYS.map((d, i) => (
                        <label key={d}>
                          <input
                            type="checkbox"
                            checked={t.days.includes(d)}
                            onChange={(e) =>
                              setTimes(m, { days: e.target.checked ? [...t.days, d] : t.days.filter((x) => x !== d) })
                            }
                          />{" "}
                          <span>{weekdayName(w, i)}</span>
                        </label>
                      ))}
                      {problems?.fields[`${at}/moving_days`] && (
                        <small className="field-error">{problems.fields[`${at}/moving_days`]}</small>
                      )}
                    </fieldset>
                    <Said estimate={preview.data?.estimates[m]} busy={preview.isFetching} />
                  </>
                )}
              </fieldset>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}

/** "Ordered now: delivered Tue 1 Dec - Thu 3 Dec", or nothing while the draft cannot be previewed. */
function Said({ estimate, busy }: { estimate: S["DeliveryEstimate"] | undefined; busy: boolean }) {
  const w = useWords();
  if (!estimate) return null;
  const [from, to] = [formatWeekdayDay(w, estimate.earliest), formatWeekdayDay(w, estimate.latest)];
  return (
    <p role="status" aria-busy={busy} className="dates-preview">
      {w.t.pricingPage.orderedNow(from === to ? from : `${from} – ${to}`)}
    </p>
  );
}

/** The server's estimates of the draft, asked a moment after the last change; none without a time zone. */
function useDatesPreview(draft: DatesDraft, country: S["CountryCode"]) {
  const api = useApi();
  const body: S["DeliveryDatesPreview"] = { time_zone: draft.zone, delivery_times: deliveryTimesOf(draft), country };
  const asked = useSettled(JSON.stringify(body), 300);
  return useQuery(
    datesPreviewQuery(
      api,
      useMemo(() => JSON.parse(asked) as typeof body, [asked]),
    ),
  );
}
