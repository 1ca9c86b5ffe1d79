// Who is signed in (data.ts sessionQuery, read by App.tsx), and the typed client made for that session's CSRF
// token, which the views under the signed-in frame take from here.
import { createContext, useContext } from "react";
import type { Api } from "../api.ts";
import { hint, queryClient, SESSION_KEY } from "./data.ts";
import type { PortalSession } from "../../../generated/api.ts";

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
