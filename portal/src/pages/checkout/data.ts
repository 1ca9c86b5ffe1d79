// The checkout area's reads, through the one data layer as query option factories (a view calls
// useQuery(publishableKeysQuery(api))): the shop's checkout keys and its Shopify callback addresses.
import { queryOptions } from "@tanstack/react-query";
import type { Api } from "../../api.ts";
import { unwrap } from "../../app/data.ts";

export const KEYS = ["publishable_keys"] as const;
export const CALLBACKS = ["shopify_callbacks"] as const;

export function publishableKeysQuery(api: Api) {
  return queryOptions({ queryKey: KEYS, queryFn: ({ signal }) => unwrap(api.GET("/publishable_keys", { signal })) });
}

export function callbacksQuery(api: Api) {
  return queryOptions({
    queryKey: CALLBACKS,
    queryFn: ({ signal }) => unwrap(api.GET("/shopify/carrier_service_tokens", { signal })),
  });
}
