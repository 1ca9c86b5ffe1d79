// What the pricing page reads, each through the one data layer: the price lists, the shipping settings and the
// pickup point chains of the directory (GET /pickup_points/branches), which rules on a chain are chosen from.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";

export const PRICE_LISTS = ["price_lists"] as const;
export const SETTINGS = ["shipping_settings"] as const;
export const BRANCHES = ["pickup_point_branches"] as const;

export function usePriceLists() {
  const api = useApi();
  return useQuery({
    queryKey: PRICE_LISTS,
    queryFn: ({ signal }) => unwrap(api.GET("/merchant/price_lists", { signal })),
  });
}

export function useSettings() {
  const api = useApi();
  return useQuery({
    queryKey: SETTINGS,
    queryFn: ({ signal }) => unwrap(api.GET("/merchant/shipping_settings", { signal })),
  });
}

/** The chains' branch codes, sorted; the directory changes seldom. */
export function useBranches(): string[] {
  const api = useApi();
  const branches = useQuery({
    queryKey: BRANCHES,
    queryFn: ({ signal }) => unwrap(api.GET("/pickup_points/branches", { signal })),
    staleTime: 10 * 60_000,
  });
  return branches.data?.items.map((b) => b.branch) ?? [];
}
