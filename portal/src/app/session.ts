// Who is signed in: one query that every view reads, and the typed client made for that session's CSRF token.
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { apiClient, type Api } from "../api.ts";
import { ApiError, hint, queryClient, SESSION_KEY, unwrap } from "./data.ts";
import type { PortalSession } from "../../../generated/api.ts";

export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    // A reload keeps the cookie, not the CSRF token: the session answer gives it again.
    queryFn: async ({ signal }): Promise<PortalSession | null> => {
      if (!hint.get()) return null;
      try {
        return await unwrap(apiClient().GET("/portal_sessions/current", { signal }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: Infinity,
  });
}

export function signedIn(session: PortalSession): void {
  hint.set(true);
  queryClient.setQueryData(SESSION_KEY, session);
}

export const ApiContext = createContext<Api | null>(null);

/** The signed-in session's client (views under the signed-in frame only). */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside the signed-in frame");
  return api;
}

export const SessionContext = createContext<PortalSession | null>(null);
export function useCurrentSession(): PortalSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useCurrentSession outside the signed-in frame");
  return s;
}
