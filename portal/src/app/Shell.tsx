// The frame around every signed-in view: the areas, who is signed in and Sign out, all reachable on a phone
// (the list wraps instead of hiding behind a menu that can fall off a narrow screen).
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import type { Area } from "./routes.tsx";
import { useCurrentSession } from "./session.ts";
import { useWords } from "../words/index.ts";
import { LanguageSwitch } from "../parts/LanguageSwitch.tsx";

export function Shell({ areas, onSignOut, children }: { areas: Area[]; onSignOut: () => void; children: ReactNode }) {
  const session = useCurrentSession();
  const w = useWords();
  const [location] = useLocation();
  return (
    <>
      <header className="container topbar">
        <strong className="brand">{w.t.common.brand}</strong>
        <nav aria-label={w.t.common.main}>
          <ul>
            {areas.map((a) => (
              <li key={a.path}>
                <Link
                  href={a.path}
                  aria-current={location === a.path || location.startsWith(`${a.path}/`) ? "page" : undefined}
                >
                  {w.t.common.areas[a.label]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="account" aria-label={w.t.common.account}>
          <span className="who">
            {session.user.email}
            <br />
            <small className="muted">
              {session.user.merchant_id} · {w.t.roles[session.user.role]}
            </small>
            <br />
            <small>
              <Link href="/password">{w.t.common.changePassword}</Link>
            </small>
          </span>
          <LanguageSwitch />
          <button type="button" className="secondary outline" onClick={onSignOut}>
            {w.t.common.signOut}
          </button>
        </section>
      </header>
      <main className="container">{children}</main>
    </>
  );
}
