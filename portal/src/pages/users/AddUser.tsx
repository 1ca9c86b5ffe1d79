// Adding a person who signs in to the portal: email, a first password the admin gives them, and a role. The
// API's messages show next to the fields.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { problemsOfError, USERS } from "./data.ts";
import type { PortalUserRole } from "../../../../generated/api.ts";

const SHOWN = ["/body/email", "/body/password", "/body/role"];

export function AddUser() {
  const api = useApi();
  const qc = useQueryClient();
  const { t } = useWords();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<PortalUserRole>("staff");
  const [notice, setNotice] = useState<string>();
  const create = useMutation({
    mutationFn: (body: S["PortalUserCreate"]) => unwrap(api.POST("/portal_users/_create", { body })),
    onMutate: () => setNotice(undefined),
    onSuccess: (u) => {
      setNotice(`${u.email} can now sign in. Give them the password yourself: it is not shown again.`);
      setEmail("");
      setPassword("");
      return qc.invalidateQueries({ queryKey: USERS });
    },
  });
  const problems = problemsOfError(create.error, "createPortalUser");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ email, password, role });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New user" className="add-user">
      <h2>Add a user</h2>
      <div className="row">
        <Field label="Email of the new user" path="/body/email" problems={problems}>
          {(p) => (
            <input {...p} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="Initial password" path="/body/password" problems={problems}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="Role" path="/body/role" problems={problems}>
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value as PortalUserRole)}>
              <option value="staff">{t.roles.staff}</option>
              <option value="admin">{t.roles.admin}</option>
            </select>
          )}
        </Field>
      </div>
      <p className="muted">
        The password needs at least 10 characters. “{t.roles.admin}” can also manage the users here; “{t.roles.staff}”
        can do everything else.
      </p>
      <ProblemBanner problems={problems} shown={SHOWN} />
      {notice && <p role="status">{notice}</p>}
      <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
        Add user
      </button>
    </form>
  );
}
