// Adding a person who signs in to the portal: email, a first password the admin gives them, and a role. The
// API's messages show next to the fields.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { USERS } from "./data.ts";
import { LIMITS } from "../../words/limits.ts";
import type { PortalUserRole } from "../../../../generated/api.ts";

const SHOWN = ["/body/email", "/body/password", "/body/role"];
/** The spec's shortest password. */
const MIN_LENGTH = LIMITS.createPortalUser?.["/body/password"]?.minLength ?? 10;

export function AddUser() {
  const api = useApi();
  const qc = useQueryClient();
  const w = useWords();
  const { t } = w;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<PortalUserRole>("staff");
  const [notice, setNotice] = useState<string>();
  const create = useMutation({
    mutationFn: (body: S["PortalUserCreate"]) => unwrap(api.POST("/portal_users/_create", { body })),
    onMutate: () => setNotice(undefined),
    onSuccess: (u) => {
      setNotice(t.users.added1(u.email));
      setEmail("");
      setPassword("");
      return qc.invalidateQueries({ queryKey: USERS });
    },
  });
  const problems = problemsOf(w, create.error, "createPortalUser");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ email, password, role });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t.users.newUser} className="add-user">
      <h2>{t.users.addTitle}</h2>
      <div className="row">
        <Field label={t.users.newEmail} path="/body/email" problems={problems}>
          {(p) => (
            <input {...p} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label={t.users.initialPassword} path="/body/password" problems={problems}>
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
        <Field label={t.users.role} path="/body/role" problems={problems}>
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value as PortalUserRole)}>
              <option value="staff">{t.roles.staff}</option>
              <option value="admin">{t.roles.admin}</option>
            </select>
          )}
        </Field>
      </div>
      <p className="muted">{t.users.rolesAbout(MIN_LENGTH, t.roles.admin, t.roles.staff)}</p>
      <ProblemBanner problems={problems} shown={SHOWN} />
      {notice && <p role="status">{notice}</p>}
      <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
        {t.users.add}
      </button>
    </form>
  );
}
