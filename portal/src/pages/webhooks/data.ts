// The webhooks area's reads (query option factories: a view calls useQuery(endpointQuery(api, id))) and the one
// write every view shares (retry a delivery), through the portal's data layer: TanStack Query, `unwrap` (a 401
// signs the page out by itself).
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, Refusal, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import type { Api, S } from "../../api.ts";
import { retryRefusedWords } from "./words.ts";
import { useWords } from "../../words/index.ts";

/** While a delivery is on its way, how often its view asks again. */
export const POLL_MS = 2_000;

export const keys = {
  all: ["webhooks"] as const,
  endpoints: ["webhooks", "endpoints"] as const,
  endpoint: (id: string) => ["webhooks", "endpoint", id] as const,
  deliveries: (id: string) => ["webhooks", "deliveries", id] as const,
  delivery: (id: string) => ["webhooks", "delivery", id] as const,
};

export function endpointsQuery(api: Api) {
  return queryOptions({
    queryKey: keys.endpoints,
    queryFn: ({ signal }) => unwrap(api.GET("/webhook_endpoints", { params: { query: { limit: 100 } }, signal })),
  });
}

export function endpointQuery(api: Api, id: string) {
  return queryOptions({
    queryKey: keys.endpoint(id),
    queryFn: ({ signal }) =>
      unwrap(api.GET("/webhook_endpoints/{webhook_id}", { params: { path: { webhook_id: id } }, signal })),
  });
}

/** The newest deliveries; asked again every few seconds while any of them is still on its way, never otherwise. */
export function deliveriesQuery(api: Api, id: string) {
  return queryOptions({
    queryKey: keys.deliveries(id),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/webhook_endpoints/{webhook_id}/deliveries", {
          params: { path: { webhook_id: id }, query: { limit: 50 } },
          signal,
        }),
      ),
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === "pending") ? POLL_MS : false),
  });
}

export function deliveryQuery(api: Api, id: string) {
  return queryOptions({
    queryKey: keys.delivery(id),
    queryFn: ({ signal }) =>
      unwrap(api.GET("/webhook_deliveries/{delivery_id}", { params: { path: { delivery_id: id } }, signal })),
    refetchInterval: (q) => (q.state.data?.status === "pending" ? POLL_MS : false),
  });
}

/**
 * "Retry now": a failed delivery is queued again (a new delivery), a pending one is attempted now. Resolves to
 * what to tell the person; a refusal (409) becomes a Refusal in plain words.
 */
export function useRetry() {
  const api = useApi();
  const w = useWords();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (d: Pick<S["WebhookDelivery"], "id" | "status" | "next_attempt_at">) => {
      try {
        await unwrap(
          api.POST("/webhook_deliveries/{delivery_id}/_redeliver", { params: { path: { delivery_id: d.id } } }),
        );
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) throw new Refusal(retryRefusedWords(e, d.next_attempt_at, w));
        throw e;
      }
      return d.status === "pending" ? w.t.webhooks.retrying : w.t.webhooks.sendingAgain;
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
