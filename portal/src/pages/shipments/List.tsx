// Inbound shipments, newest announcement first, a page at a time ("Show more" follows the API's next_cursor),
// found by a piece of the reference or the sender's name and filtered by status; the filters live in the address.
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { useQueryParams } from "../../app/location.ts";
import { problemsOf } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords, type Catalogue } from "../../words/index.ts";
import { isStatus, STATUSES, shipmentListQuery, type Filters } from "./data.ts";
import { ShipmentFilters } from "./Filters.tsx";
import { ShipmentTable } from "./ListTable.tsx";
import { useApi } from "../../app/session.ts";

export function ShipmentList() {
  const w = useWords();
  const ts = w.t.shipments;
  const [params, setParams] = useQueryParams();
  const chosen = new Set(params.getAll("status").filter(isStatus));
  const filters: Filters = { q: (params.get("q") ?? "").trim(), statuses: STATUSES.filter((s) => chosen.has(s)) };
  const api = useApi();
  const list = useInfiniteQuery(shipmentListQuery(api, filters));
  const apply = (f: Filters) => setParams({ q: f.q || undefined, status: f.statuses });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = filters.q !== "" || filters.statuses.length > 0;
  return (
    <section>
      <div className="heading-row">
        <hgroup>
          <h1>{ts.title}</h1>
          <p>{ts.about}</p>
        </hgroup>
        <Link href="/shipments/new" className="button-link">
          {ts.announceOne}
        </Link>
      </div>
      <ShipmentFilters applied={filters} onApply={apply} />
      {list.isError && <ProblemBanner problems={problemsOf(w, list.error, "listInboundShipments")} />}
      {list.isPending && <p aria-busy="true">{ts.loadingList}</p>}
      {items.length > 0 && <ShipmentTable items={items} />}
      {list.isSuccess && items.length === 0 && <p className="muted">{filtered ? ts.noneMatch : ts.noneYet}</p>}
      {list.isSuccess && items.length > 0 && (
        <p className="muted" role="status">
          {countWords(ts, items.length, filtered, list.hasNextPage)}
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
          {ts.showMore}
        </button>
      )}
    </section>
  );
}

const countWords = (ts: Catalogue["shipments"], n: number, filtered: boolean, more: boolean) =>
  more ? ts.showingNewest(n, filtered) : filtered ? ts.matching(n) : ts.showingAll(n);
