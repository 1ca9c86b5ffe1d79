// Hash routes with their query inside the hash (#/shipments?status=initial): the server serves one page at
// /portal whatever the view, and a reload or a shared link keeps the view and its filters.
import { useSyncExternalStore } from "react";

const read = (): [string, string] => {
  const h = window.location.hash.replace(/^#/, "") || "/";
  const i = h.indexOf("?");
  return i < 0 ? [h, ""] : [h.slice(0, i) || "/", h.slice(i + 1)];
};
const subscribe = (cb: () => void) => {
  window.addEventListener("hashchange", cb);
  return () => window.removeEventListener("hashchange", cb);
};

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) {
    window.history.replaceState(null, "", `#${to}`);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  } else window.location.hash = to;
}

/** wouter's location hook: the path part of the hash. */
export function useHashPath(): [string, typeof navigate] {
  return [useSyncExternalStore(subscribe, () => read()[0]), navigate];
}
useHashPath.hrefs = (href: string) => `#${href}`;

/** wouter's search hook: the query part of the hash. */
export function useHashSearch(): string {
  return useSyncExternalStore(subscribe, () => read()[1]);
}

/** The view's query parameters, and a setter that replaces them (the view's history entry stays one). */
export function useQueryParams(): [URLSearchParams, (next: Record<string, string | string[] | undefined>) => void] {
  const search = useHashSearch();
  const [path] = useHashPath();
  const params = new URLSearchParams(search);
  const set = (next: Record<string, string | string[] | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) {
      for (const one of Array.isArray(v) ? v : v ? [v] : []) p.append(k, one);
    }
    const q = p.toString();
    navigate(q ? `${path}?${q}` : path, { replace: true });
  };
  return [params, set];
}
