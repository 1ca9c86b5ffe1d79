// Reset a person's password: the admin types a temporary one and gives it to the person (the portal sends no
// mail). The person is signed out at once and must choose a password of their own at the next sign-in.
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { LIMITS } from "../../words/limits.ts";

/** The spec's shortest temporary password. */
const MIN_LENGTH = LIMITS.resetPortalUserPassword?.["/body/password"]?.minLength ?? 10;

export function ResetPassword({
  user,
  onDone,
  onCancel,
}: {
  user: S["PortalUser"];
  onDone: () => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const w = useWords();
  const t = w.t.users;
  const formId = useId();
  const [password, setPassword] = useState("");
  const reset = useMutation({
    mutationFn: (pw: string) =>
      unwrap(
        api.POST("/portal_users/{user_id}/_reset_password", {
          params: { path: { user_id: user.id } },
          body: { password: pw },
        }),
      ),
    onSuccess: onDone,
  });
  const problems = problemsOf(w, reset.error, "resetPortalUserPassword");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.mutate(password);
  };
  // The field says what is wrong with the password; the banner only what no field shows (the person was removed).
  const unshown = problems && !problems.fields["/body/password"] ? problems : undefined;
  return (
    <Confirm
      className="reset-password"
      title={t.resetQuestion(user.email)}
      confirmLabel={t.setTemporary}
      form={formId}
      busy={reset.isPending}
      onCancel={onCancel}
    >
      <p>{t.resetAbout}</p>
      <form id={formId} onSubmit={submit} noValidate aria-label={t.reset}>
        <Field label={t.temporaryPassword(MIN_LENGTH)} path="/body/password" problems={problems}>
          {(p) => (
            <input
              {...p}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <ProblemBanner problems={unshown} shown={["/body/password"]} />
      </form>
    </Confirm>
  );
}
