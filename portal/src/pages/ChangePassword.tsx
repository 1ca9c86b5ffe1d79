// The signed-in person's own password: at #/password for anyone, and as the only view (with Sign out) while the
// session says must_change_password, after an admin reset the password. The new password is typed twice (the
// page compares the two); after the change this session goes on, and the person's other sessions end.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Problems } from "../api.ts";
import { problemsOf, unwrap } from "../app/data.ts";
import { signedIn, useApi, useCurrentSession } from "../app/session.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { useWords } from "../words/index.ts";
import { LIMITS } from "../words/limits.ts";
import type { PortalPasswordChange } from "../../../generated/api.ts";

const REPEAT = "/repeat";
const SHOWN = ["/body/current_password", "/body/new_password", REPEAT];
/** The spec's shortest new password. */
const MIN_LENGTH = LIMITS.changePortalPassword?.["/body/new_password"]?.minLength ?? 10;

export function ChangePassword({ forced = false }: { forced?: boolean }) {
  const api = useApi();
  const session = useCurrentSession();
  const w = useWords();
  const { t } = w;
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
    ? { message: "", fields: { [REPEAT]: t.common.notSame } }
    : problemsOf(w, change.error, "changePortalPassword");
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
        <h1>{forced ? t.common.chooseTitle : t.common.changeTitle}</h1>
        <p>{forced ? t.common.chooseAbout : t.common.changeAbout}</p>
      </hgroup>
      <form onSubmit={submit} noValidate aria-label={forced ? t.common.chooseTitle : t.common.changeTitle}>
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={session.user.email} readOnly hidden />
        <Field
          label={forced ? t.common.temporaryPassword : t.common.currentPassword}
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
        <Field label={t.common.newPassword(MIN_LENGTH)} path="/body/new_password" problems={problems}>
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
        <Field label={t.common.newPasswordAgain} path={REPEAT} problems={problems}>
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
        {done && !forced && <p role="status">{t.common.changed}</p>}
        <button type="submit" aria-busy={change.isPending} disabled={change.isPending}>
          {forced ? t.common.saveNewPassword : t.common.changePassword}
        </button>
      </form>
    </section>
  );
}

/** The whole portal while an admin-reset password waits to be changed: this form and Sign out, nothing else. */
export function PasswordGate({ onSignOut }: { onSignOut: () => void }) {
  const session = useCurrentSession();
  const { t } = useWords();
  return (
    <>
      <header className="container topbar gate">
        <strong className="brand">{t.common.brand}</strong>
        <section className="account" aria-label={t.common.account}>
          <span className="who">
            {session.user.email}
            <br />
            <small className="muted">{session.user.merchant_id}</small>
          </span>
          <button type="button" className="secondary outline" onClick={onSignOut}>
            {t.common.signOut}
          </button>
        </section>
      </header>
      <main className="container">
        <ChangePassword forced />
      </main>
    </>
  );
}
