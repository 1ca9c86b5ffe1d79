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
        <strong className="brand">Logistics portal</strong>
        <nav aria-label="Main">
          <ul>
            {areas.map((a) => (
              <li key={a.path}>
                <Link
                  href={a.path}
                  aria-current={location === a.path || location.startsWith(`${a.path}/`) ? "page" : undefined}
                >
                  {a.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="account" aria-label="Account">
          <span className="who">
            {session.user.email}
            <br />
            <small className="muted">
              {session.user.merchant_id} · <span lang={w.lang}>{w.t.roles[session.user.role]}</span>
            </small>
            <br />
            <small>
              <Link href="/password">Change password</Link>
            </small>
          </span>
          <LanguageSwitch />
          <button type="button" className="secondary outline" onClick={onSignOut}>
            Sign out
          </button>
        </section>
      </header>
      <main className="container">{children}</main>
    </>
  );
}
