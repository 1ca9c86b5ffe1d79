// The signed-in frame (navigation, account, the area the address names); the sign-in form until there is a session;
// only the form for a new password (and Sign out) while an admin-reset password waits to be changed.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { Redirect, Route, Router, Switch } from "wouter";
import { apiClient } from "./api.ts";
import { queryClient, sessionQuery, signedOut } from "./app/data.ts";
import { useHashPath, useHashSearch } from "./app/location.ts";
import { AREAS } from "./app/routes.tsx";
import { ApiContext, SessionContext } from "./app/session.ts";
import { Shell } from "./app/Shell.tsx";
import { ChangePassword, PasswordGate } from "./pages/ChangePassword.tsx";
import { SignIn } from "./pages/SignIn.tsx";
import { useWords } from "./words/index.ts";
import type { PortalSession } from "../../generated/api.ts";

export function App() {
  const session = useQuery(sessionQuery());
  const w = useWords();
  // The page is in one language: the one its words are in (screen readers and the browser's own words follow it),
  // its title too.
  useEffect(() => {
    document.documentElement.lang = w.lang;
    document.title = w.t.common.documentTitle;
  }, [w]);
  if (session.isPending)
    return (
      <main className="container" aria-busy="true">
        {w.t.common.loading}
      </main>
    );
  if (!session.data) return <SignIn />;
  return <SignedIn session={session.data} />;
}

function SignedIn({ session }: { session: PortalSession }) {
  const api = useMemo(() => apiClient(session.csrf_token), [session.csrf_token]);
  const areas = AREAS.filter((a) => !a.adminOnly || session.user.role === "admin");
  const signOut = async () => {
    await api.POST("/portal_sessions/current/_delete").catch(() => undefined);
    signedOut();
    queryClient.clear();
    window.location.hash = "";
  };
  if (session.must_change_password)
    return (
      <ApiContext.Provider value={api}>
        <SessionContext.Provider value={session}>
          <PasswordGate onSignOut={signOut} />
        </SessionContext.Provider>
      </ApiContext.Provider>
    );
  return (
    <ApiContext.Provider value={api}>
      <SessionContext.Provider value={session}>
        <Router hook={useHashPath} searchHook={useHashSearch}>
          <Shell areas={areas} onSignOut={signOut}>
            <Switch>
              {areas.map(({ path, view: View }) => (
                <Route key={path} path={`${path}/*?`}>
                  {(params: Record<string, string | undefined>) => (
                    <View rest={(params["*"] ?? "").split("/").filter(Boolean).map(decodeURIComponent)} />
                  )}
                </Route>
              ))}
              <Route path="/password">
                <ChangePassword />
              </Route>
              <Route>
                <Redirect to="/shipments" replace />
              </Route>
            </Switch>
          </Shell>
        </Router>
      </SessionContext.Provider>
    </ApiContext.Provider>
  );
}
