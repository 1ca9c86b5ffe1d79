// What the pricing page reads, each through the one data layer as a query option factory (a view calls
// useQuery(settingsQuery(api))): the price lists, the shipping settings, the pickup point chains of the directory
// (GET /pickup_points/branches), which rules on a chain are chosen from, and the two previews of a draft (its
// prices for a customer, its delivery dates).
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { Api, S } from "../../api.ts";
import { unwrap } from "../../app/data.ts";

export const PRICE_LISTS = ["price_lists"] as const;
export const SETTINGS = ["shipping_settings"] as const;
export const BRANCHES = ["pickup_point_branches"] as const;
export const PREVIEW = ["preview"] as const;
export const DATES_PREVIEW = ["delivery_dates_preview"] as const;

export function priceListsQuery(api: Api) {
  return queryOptions({
    queryKey: PRICE_LISTS,
    queryFn: ({ signal }) => unwrap(api.GET("/merchant/price_lists", { signal })),
  });
}

export function settingsQuery(api: Api) {
  return queryOptions({
    queryKey: SETTINGS,
    queryFn: ({ signal }) => unwrap(api.GET("/merchant/shipping_settings", { signal })),
  });
}

/** The chains' branch codes; the directory changes seldom. */
export function branchesQuery(api: Api) {
  return queryOptions({
    queryKey: BRANCHES,
    queryFn: ({ signal }) => unwrap(api.GET("/pickup_points/branches", { signal })),
    select: (branches) => branches.items.map((b) => b.branch),
    staleTime: 10 * 60_000,
  });
}

/**
 * A draft price list priced for a customer exactly as checkout would (POST /shipping_options/_preview). The
 * request is its key: asked again for another draft or customer, never while nothing changes; the last answer
 * stays shown while the next is on its way.
 */
export function previewQuery(api: Api, body: S["ShippingOptionsPreview"]) {
  return queryOptions({
    queryKey: [...PREVIEW, body],
    queryFn: async ({ signal }) =>
      (await unwrap(api.POST("/shipping_options/_preview", { body, signal }))) as S["ShippingOptionsResult"],
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** The server's delivery estimates of draft delivery times; none asked without a time zone. */
export function datesPreviewQuery(api: Api, body: S["DeliveryDatesPreview"]) {
  return queryOptions({
    queryKey: [...DATES_PREVIEW, body],
    queryFn: ({ signal }) => unwrap(api.POST("/merchant/delivery_dates/_preview", { body, signal })),
    enabled: body.time_zone !== "",
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
