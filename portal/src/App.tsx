// The signed-in frame: main navigation and the three areas; the sign-in form until there is a session.
import { useEffect, useState } from "react";
import { apiClient, type Api, type S } from "./api.ts";
import { Checkout } from "./pages/Checkout.tsx";
import { Pricing } from "./pages/Pricing.tsx";
import { Shipments } from "./pages/Shipments.tsx";
import { SignIn } from "./pages/SignIn.tsx";
import { Users } from "./pages/Users.tsx";
import { Webhooks } from "./pages/Webhooks.tsx";
import { useRoute } from "./route.ts";

interface Signed {
  session: S["PortalSession"];
  api: Api;
}

const AREAS = [
  { key: "shipments", label: "Shipments" },
  { key: "pricing", label: "Pricing" },
  { key: "webhooks", label: "Webhooks" },
  { key: "checkout", label: "Checkout" },
] as const;

export function App() {
  const [signed, setSigned] = useState<Signed | null | undefined>(undefined);
  const route = useRoute();

  useEffect(() => {
    // A reload keeps the cookie, not the CSRF token: the session answer gives it again.
    void apiClient()
      .GET("/portal_sessions/current")
      .then(
        (r) => setSigned(r.data ? { session: r.data, api: apiClient(r.data.csrf_token) } : null),
        () => setSigned(null),
      );
  }, []);

  if (signed === undefined)
    return (
      <main className="container" aria-busy="true">
        Loading…
      </main>
    );
  if (signed === null)
    return <SignIn onSignedIn={(session) => setSigned({ session, api: apiClient(session.csrf_token) })} />;

  const isAdmin = signed.session.user.role === "admin";
  const areas = isAdmin ? [...AREAS, { key: "users", label: "Users" } as const] : AREAS;
  const area = areas.find((a) => a.key === route[0])?.key ?? "shipments";
  const signOut = async () => {
    await signed.api.POST("/portal_sessions/current/_delete");
    window.location.hash = "";
    setSigned(null);
  };
  const expired = () => setSigned(null);
  return (
    <>
      <header className="container">
        <nav aria-label="Main">
          <ul>
            <li>
              <strong>Logistics portal</strong>
            </li>
          </ul>
          <ul>
            {areas.map((a) => (
              <li key={a.key}>
                <a href={`#/${a.key}`} aria-current={a.key === area ? "page" : undefined}>
                  {a.label}
                </a>
              </li>
            ))}
            <li>
              <details className="dropdown">
                <summary>Account</summary>
                <ul dir="rtl">
                  <li>
                    <span>{signed.session.user.email}</span>
                  </li>
                  <li>
                    <span>
                      {signed.session.user.merchant_id} · {signed.session.user.role}
                    </span>
                  </li>
                  <li>
                    <button type="button" className="secondary" onClick={signOut}>
                      Sign out
                    </button>
                  </li>
                </ul>
              </details>
            </li>
          </ul>
        </nav>
      </header>
      <main className="container">
        {area === "shipments" && <Shipments api={signed.api} route={route.slice(1)} onExpired={expired} />}
        {area === "pricing" && <Pricing api={signed.api} onExpired={expired} />}
        {area === "webhooks" && <Webhooks api={signed.api} route={route.slice(1)} onExpired={expired} />}
        {area === "checkout" && <Checkout api={signed.api} onExpired={expired} />}
        {area === "users" && <Users api={signed.api} onExpired={expired} />}
      </main>
    </>
  );
}
