// The shipments area's reads and writes, through the portal's data layer: TanStack Query and `unwrap` (a 401
// signs the page out by itself; every other refusal is an ApiError the view says in words). Reads are query option
// factories (a view calls useQuery(shipmentQuery(api, id))); writes are mutation hooks.
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Api } from "../../api.ts";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { LIVE_POLL_MS, takesArrivals } from "./live.ts";
import type {
  InboundShipmentAction,
  InboundShipmentCreate,
  InboundShipmentModify,
  InboundShipmentStatus,
} from "../../../../generated/api.ts";

/** Every status, in the order a shipment goes through them (the filter lists them so); a Record, so that the
 * compiler names a status the spec gains and this list lacks. */
const IN_ORDER: Record<InboundShipmentStatus, true> = {
  initial: true,
  confirmed: true,
  en_route: true,
  arrived_at_warehouse: true,
  processing: true,
  problem: true,
  processed: true,
  cancelled: true,
  deleted: true,
};
export const STATUSES = Object.keys(IN_ORDER) as readonly InboundShipmentStatus[];
export const isStatus = (s: string): s is InboundShipmentStatus => (STATUSES as readonly string[]).includes(s);

/** Rows per page of the list. */
export const PAGE_SIZE = 20;

export const keys = {
  all: ["shipments"] as const,
  list: (filters: Filters) => ["shipments", "list", filters] as const,
  one: (id: string) => ["shipments", "one", id] as const,
  history: (id: string) => ["shipments", "history", id] as const,
};

export interface Filters {
  /** Part of the reference or of the sender's name. */
  q: string;
  statuses: InboundShipmentStatus[];
}

/** Newest announcement first, page after page as "Show more" asks. */
export function shipmentListQuery(api: Api, filters: Filters) {
  return infiniteQueryOptions({
    queryKey: keys.list(filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/inbound_shipments", {
          signal,
          params: {
            query: {
              sort: "-created_at",
              limit: PAGE_SIZE,
              ...(filters.q && { q: filters.q }),
              ...(filters.statuses.length > 0 && { status: filters.statuses }),
              ...(pageParam && { cursor: pageParam }),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Other filters: the rows shown stay until the new ones are there (no flash of "Loading").
    placeholderData: keepPreviousData,
  });
}

/**
 * One shipment. `live` (its page): read again every LIVE_POLL_MS while it takes arrivals and the tab is shown
 * (TanStack Query pauses a hidden tab's interval), so the warehouse's arrivals appear as they are recorded; the
 * edit form leaves it out and is never refreshed under a person's typing.
 */
export function shipmentQuery(api: Api, id: string, { live = false }: { live?: boolean } = {}) {
  return queryOptions({
    queryKey: keys.one(id),
    queryFn: ({ signal }) =>
      unwrap(api.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } }, signal })),
    refetchInterval: (q) => (live && q.state.data && takesArrivals(q.state.data.status) ? LIVE_POLL_MS : false),
  });
}

/** The status timeline read again when the shipment changed since the page read it (not on the first read). */
export function useTimelineFollows(id: string, updatedAt: string) {
  const client = useQueryClient();
  const seen = useRef(updatedAt);
  useEffect(() => {
    if (seen.current === updatedAt) return;
    seen.current = updatedAt;
    void client.invalidateQueries({ queryKey: keys.history(id) });
  }, [client, id, updatedAt]);
}

export function statusHistoryQuery(api: Api, id: string) {
  return queryOptions({
    queryKey: keys.history(id),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/inbound_shipments/{shipment_id}/status_history", { params: { path: { shipment_id: id } }, signal }),
      ),
  });
}

/** Confirm or withdraw: the API's answer, and the shipment read again afterwards (also after a refusal). */
export function useShipmentAction(id: string) {
  const api = useApi();
  const client = useQueryClient();
  const at = { params: { path: { shipment_id: id } } };
  return useMutation({
    mutationFn: (action: Exclude<InboundShipmentAction, "modify">) =>
      unwrap(
        action === "confirm"
          ? api.POST("/inbound_shipments/{shipment_id}/_confirm", at)
          : api.DELETE("/inbound_shipments/{shipment_id}", at),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Announce (no id) or modify (the whole list of lines replaced); resolves to the shipment's id. */
export function useSaveShipment(id?: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: InboundShipmentCreate): Promise<string> => {
      if (!id) return (await unwrap(api.POST("/inbound_shipments/_create", { body }))).shipment_id;
      const { products, ...rest } = body;
      const changes: InboundShipmentModify = {
        ...rest,
        expected_at_wh: rest.expected_at_wh ?? null,
        products_all: products,
      };
      return (
        await unwrap(
          api.POST("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } }, body: changes }),
        )
      ).shipment_id;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
