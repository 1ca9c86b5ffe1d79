// What has arrived of a shipment, oldest first: one row per product per arrival (a correction is a minus), with
// when and who recorded it (the warehouse user's name, or the warehouse system's id). The page reads the shipment
// again while arrivals can still come (data.ts shipmentQuery's `live`), so new rows appear without a reload.
import { useWords } from "../../words/index.ts";
import type { InboundShipment, RecordedBy } from "../../../../generated/api.ts";

/** `live`: the page is reading the shipment again as it goes (said under the heading). */
export function ShipmentArrivals({ shipment, live }: { shipment: InboundShipment; live: boolean }) {
  const w = useWords();
  const t = w.t.arrivals;
  const arrivals = shipment.products
    .flatMap((l) => l.arrivals.map((a) => ({ ...a, product: l.product })))
    .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  const who = (by: RecordedBy | undefined) =>
    !by ? w.t.none : by.type === "warehouse_user" ? by.name : t.system(by.id);
  return (
    <section aria-labelledby="arrivals-title">
      <h2 id="arrivals-title">{t.title}</h2>
      {live && <p className="muted">{t.live}</p>}
      {arrivals.length === 0 ? (
        <p className="muted">{t.none}</p>
      ) : (
        <table className="stack-on-phone" aria-labelledby="arrivals-title">
          <thead>
            <tr>
              <th scope="col">{t.when}</th>
              <th scope="col">{t.product}</th>
              <th scope="col">{t.items}</th>
              <th scope="col">{t.who}</th>
            </tr>
          </thead>
          <tbody>
            {arrivals.map((a, i) => (
              <tr key={i}>
                <td data-label={t.when}>{w.date(a.ts)}</td>
                <td data-label={t.product}>{a.product.name || a.product.merchants_id}</td>
                <td data-label={t.items}>
                  {a.change > 0 ? `+${w.number(a.change)}` : t.correction(w.number(a.change))}
                </td>
                <td data-label={t.who} className="wrap-anywhere">
                  {who(a.recorded_by)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
