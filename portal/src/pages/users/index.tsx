// The Users area (#/users, admins only): the people who sign in to the portal for this shop, their roles,
// a temporary password for one who forgot theirs, removing one who left, and adding a person.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApi, useCurrentSession } from "../../app/session.ts";
import { useWords } from "../../words/index.ts";
import { AddUser } from "./AddUser.tsx";
import { usersQuery } from "./data.ts";
import { problemsOf } from "../../app/data.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { RemoveUser } from "./RemoveUser.tsx";
import { ResetPassword } from "./ResetPassword.tsx";
import { UserRow, type Said } from "./UserRow.tsx";
import type { PortalUser } from "../../../../generated/api.ts";

type Pending = { kind: "reset" | "remove"; user: PortalUser };

export function Users(_: { rest: string[] }) {
  const session = useCurrentSession();
  const api = useApi();
  const users = useQuery(usersQuery(api));
  const w = useWords();
  const t = w.t.users;
  // What the last action on a user said, shown under that user's row; a removal's outcome above the list.
  const [said, setSaid] = useState<Said & { id: string }>();
  const [removed, setRemoved] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const sayOf = (id: string) => (s: Said) => {
    setRemoved(undefined);
    setSaid({ ...s, id });
  };
  const ask = (kind: Pending["kind"], user: PortalUser) => () => {
    setSaid(undefined);
    setRemoved(undefined);
    // The shop's only administrator: refused at once, in the API's own words, rather than after a confirmation
    // that could only end in the same refusal. (The API still refuses it, should the list be out of date.)
    const admins = users.data?.items.filter((u) => u.role === "admin") ?? [];
    if (kind === "remove" && admins.length === 1 && admins[0]!.id === user.id) {
      const why = w.field({ path: "/params/user_id", code: "last_admin", message: "" }, "deletePortalUser");
      return sayOf(user.id)({ text: why, problem: true });
    }
    setPending({ kind, user });
  };
  const failed = problemsOf(w, users.error, "listPortalUsers");
  return (
    <section className="users">
      <hgroup>
        <h1>{t.title}</h1>
        <p>{t.about}</p>
      </hgroup>
      {removed && <p role="status">{removed}</p>}
      <ProblemBanner problems={failed} />
      <div className="table-wrap">
        <table aria-label={t.title} className="stack-on-phone users-table" aria-busy={users.isPending}>
          <thead>
            <tr>
              <th scope="col">{t.email}</th>
              <th scope="col">{t.role}</th>
              <th scope="col">{t.added}</th>
              <th scope="col">
                <span className="visually-hidden">{t.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data?.items.map((u) => (
              <UserRow
                key={u.id}
                user={u}
                you={u.id === session.user.id}
                said={said?.id === u.id ? said : undefined}
                onSaid={sayOf(u.id)}
                onReset={ask("reset", u)}
                onRemove={ask("remove", u)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {pending?.kind === "reset" && (
        <ResetPassword
          user={pending.user}
          onCancel={() => setPending(undefined)}
          onDone={() => {
            setPending(undefined);
            sayOf(pending.user.id)({
              text: t.resetDone(pending.user.email),
            });
          }}
        />
      )}
      {pending?.kind === "remove" && (
        <RemoveUser
          user={pending.user}
          you={pending.user.id === session.user.id}
          onCancel={() => setPending(undefined)}
          onRemoved={() => {
            setPending(undefined);
            setRemoved(t.removed(pending.user.email));
          }}
          onRefused={(why) => {
            setPending(undefined);
            sayOf(pending.user.id)({ text: why, problem: true });
          }}
        />
      )}
      <AddUser />
    </section>
  );
}
