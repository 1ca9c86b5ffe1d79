// Portal users of the merchant, for its admins: who can sign in, and a form to add a person.
import { signedOut } from "../app/data.ts";
import { useApi } from "../app/session.ts";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { formatTime, problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";

export function Users(_: { rest: string[] }) {
  const api = useApi();
  const onExpired = signedOut;
  const [users, setUsers] = useState<S["PortalUser"][]>();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<S["PortalUserRole"]>("staff");
  const [problems, setProblems] = useState<Problems>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const r = await api.GET("/portal_users");
    if (r.response.status === 401) return onExpired();
    if (r.data) setUsers(r.data.items);
    else setProblems(problemsOf(r.error));
  }, [api, onExpired]);
  useEffect(() => void load(), [load]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const r = await api.POST("/portal_users/_create", { body: { email, password, role } });
    if (r.response.status === 401) return onExpired();
    setProblems(problemsOf(r.error));
    if (r.data) {
      setNotice(`${r.data.email} can now sign in. Give them the password in person; it is not shown again.`);
      setEmail("");
      setPassword("");
      await load();
    }
  };
  return (
    <section>
      <hgroup>
        <h1>Users</h1>
        <p>The people who sign in to this portal for your account.</p>
      </hgroup>
      <div className="table-wrap">
        <table aria-label="Users">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {users?.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>{u.role}</td>
                <td>{formatTime(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form onSubmit={create} noValidate aria-label="New user">
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
              <select {...p} value={role} onChange={(e) => setRole(e.target.value as S["PortalUserRole"])}>
                <option value="staff">staff</option>
                <option value="admin">admin (may add users)</option>
              </select>
            )}
          </Field>
        </div>
        <ProblemBanner problems={problems} shown={["/body/email", "/body/password", "/body/role"]} />
        {notice && <p role="status">{notice}</p>}
        <button type="submit">Add user</button>
      </form>
    </section>
  );
}
