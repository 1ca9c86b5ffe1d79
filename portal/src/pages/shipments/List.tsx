// Inbound shipments, newest announcement first, a page at a time ("Show more" follows the API's next_cursor),
// found by a piece of the reference or the sender's name and filtered by status; the filters live in the address.
import { Link } from "wouter";
import { useQueryParams } from "../../app/location.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { isStatus, STATUSES, useShipmentList, type Filters } from "./data.ts";
import { ShipmentFilters } from "./Filters.tsx";
import { ShipmentTable } from "./ListTable.tsx";
import { problemWords } from "./problems.ts";

export function ShipmentList() {
  const w = useWords();
  const [params, setParams] = useQueryParams();
  const chosen = new Set(params.getAll("status").filter(isStatus));
  const filters: Filters = { q: (params.get("q") ?? "").trim(), statuses: STATUSES.filter((s) => chosen.has(s)) };
  const list = useShipmentList(filters);
  const apply = (f: Filters) => setParams({ q: f.q || undefined, status: f.statuses });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = filters.q !== "" || filters.statuses.length > 0;
  return (
    <section>
      <div className="heading-row">
        <hgroup>
          <h1>Shipments</h1>
          <p>Deliveries your suppliers bring to the warehouse, newest first, and what has arrived of them.</p>
        </hgroup>
        <Link href="/shipments/new" className="button-link">
          Announce a shipment
        </Link>
      </div>
      <ShipmentFilters applied={filters} onApply={apply} />
      {list.isError && <ProblemBanner problems={problemWords(w, list.error, "listInboundShipments")} />}
      {list.isPending && <p aria-busy="true">Loading shipments…</p>}
      {items.length > 0 && <ShipmentTable items={items} />}
      {list.isSuccess && items.length === 0 && (
        <p className="muted">
          {filtered ? "No shipments match these filters." : "No shipments yet: announce the first one."}
        </p>
      )}
      {list.isSuccess && items.length > 0 && (
        <p className="muted" role="status">
          {countWords(items.length, filtered, list.hasNextPage)}
        </p>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="secondary"
          aria-busy={list.isFetchingNextPage}
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          Show more
        </button>
      )}
    </section>
  );
}

const countWords = (n: number, filtered: boolean, more: boolean) =>
  more
    ? `Showing the newest ${n} ${filtered ? "matching shipments" : "shipments"}.`
    : filtered
      ? `${n} ${n === 1 ? "shipment matches" : "shipments match"}.`
      : `Showing all ${n} ${n === 1 ? "shipment" : "shipments"}.`;
