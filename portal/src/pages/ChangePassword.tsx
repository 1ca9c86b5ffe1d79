// The signed-in person's own password: at #/password for anyone, and as the only view (with Sign out) while the
// session says must_change_password, after an admin reset the password. The new password is typed twice (the
// page compares the two); after the change this session goes on, and the person's other sessions end.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Problems } from "../api.ts";
import { unwrap } from "../app/data.ts";
import { signedIn, useApi, useCurrentSession } from "../app/session.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { problemsOfError } from "./users/data.ts";
import type { PortalPasswordChange } from "../../../generated/api.ts";

const REPEAT = "/repeat";
const SHOWN = ["/body/current_password", "/body/new_password", REPEAT];

export function ChangePassword({ forced = false }: { forced?: boolean }) {
  const api = useApi();
  const session = useCurrentSession();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [differ, setDiffer] = useState(false);
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: (body: PortalPasswordChange) => unwrap(api.POST("/portal_sessions/current/_change_password", { body })),
    onMutate: () => setDone(false),
    onSuccess: (s) => {
      setCurrent("");
      setNext("");
      setRepeat("");
      setDone(true);
      // While the gate is up this brings the portal's frame; otherwise the view stays, saying it is done.
      signedIn(s);
    },
  });
  const problems: Problems | undefined = differ
    ? { message: "", fields: { [REPEAT]: "The two new passwords are not the same: type the new password again." } }
    : problemsOfError(change.error, "changePortalPassword");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (next !== repeat) {
      change.reset();
      setDiffer(true);
      return;
    }
    setDiffer(false);
    change.mutate({ current_password: current, new_password: next });
  };
  return (
    <section className="password-page">
      <hgroup>
        <h1>{forced ? "Choose a new password" : "Change your password"}</h1>
        <p>
          {forced
            ? "An administrator reset your password. Before you go on, choose a new password of your own: type the temporary password you were given, then your new password twice."
            : "Type your current password, then your new password twice. You stay signed in here; anywhere else you are signed in, you are signed out."}
        </p>
      </hgroup>
      <form onSubmit={submit} noValidate aria-label={forced ? "Choose a new password" : "Change your password"}>
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={session.user.email} readOnly hidden />
        <Field
          label={forced ? "Temporary password" : "Current password"}
          path="/body/current_password"
          problems={problems}
        >
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </Field>
        <Field label="New password (at least 10 characters)" path="/body/new_password" problems={problems}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          )}
        </Field>
        <Field label="New password again" path={REPEAT} problems={problems}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          )}
        </Field>
        {!differ && <ProblemBanner problems={problems} shown={SHOWN} />}
        {done && !forced && <p role="status">Your password is changed. Use the new one the next time you sign in.</p>}
        <button type="submit" aria-busy={change.isPending} disabled={change.isPending}>
          {forced ? "Save my new password" : "Change password"}
        </button>
      </form>
    </section>
  );
}

/** The whole portal while an admin-reset password waits to be changed: this form and Sign out, nothing else. */
export function PasswordGate({ onSignOut }: { onSignOut: () => void }) {
  const session = useCurrentSession();
  return (
    <>
      <header className="container topbar gate">
        <strong className="brand">Logistics portal</strong>
        <section className="account" aria-label="Account">
          <span className="who">
            {session.user.email}
            <br />
            <small className="muted">{session.user.merchant_id}</small>
          </span>
          <button type="button" className="secondary outline" onClick={onSignOut}>
            Sign out
          </button>
        </section>
      </header>
      <main className="container">
        <ChangePassword forced />
      </main>
    </>
  );
}
