// Reset a person's password: the admin types a temporary one and gives it to the person (the portal sends no
// mail). The person is signed out at once and must choose a password of their own at the next sign-in.
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { problemsOfError } from "./data.ts";

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
  const problems = problemsOfError(reset.error, "resetPortalUserPassword");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.mutate(password);
  };
  // The field says what is wrong with the password; the banner only what no field shows (the person was removed).
  const unshown = problems && !problems.fields["/body/password"] ? problems : undefined;
  return (
    <Confirm
      className="reset-password"
      title={`Reset the password of ${user.email}?`}
      confirmLabel="Set temporary password"
      form={formId}
      busy={reset.isPending}
      onCancel={onCancel}
    >
      <p>
        Type a temporary password and give it to them yourself: the portal sends no email. They are signed out now, and
        at their next sign-in they must choose a new password of their own.
      </p>
      <form id={formId} onSubmit={submit} noValidate aria-label="Reset password">
        <Field label="Temporary password (at least 10 characters)" path="/body/password" problems={problems}>
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
