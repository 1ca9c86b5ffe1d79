// One user's role: a choice in words, saved with its own button (shown once another role is chosen). A change
// signs the person out; the merchant's only administrator cannot be made staff (the API refuses, said in words).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { S } from "../../api.ts";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { useWords } from "../../words/index.ts";
import { refusalOf, USERS } from "./data.ts";
import type { Said } from "./UserRow.tsx";
import type { PortalUser, PortalUserRole } from "../../../../generated/api.ts";

const ROLES: PortalUserRole[] = ["admin", "staff"];

export function RoleControl({ user, you, onSaid }: { user: PortalUser; you: boolean; onSaid: (s: Said) => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const w = useWords();
  const { t } = w;
  const [choice, setChoice] = useState<PortalUserRole>(user.role);
  const save = useMutation({
    mutationFn: (role: PortalUserRole) =>
      unwrap(api.POST("/portal_users/{user_id}", { params: { path: { user_id: user.id } }, body: { role } })),
    onSuccess: (saved) => {
      onSaid({
        text: you ? t.users.yourRoleNow(t.roles[saved.role]) : t.users.roleNow(saved.email, t.roles[saved.role]),
      });
      qc.setQueryData<S["PortalUserList"]>(
        USERS,
        (list) => list && { items: list.items.map((u) => (u.id === saved.id ? saved : u)) },
      );
      return qc.invalidateQueries({ queryKey: USERS });
    },
    onError: (e) => {
      setChoice(user.role);
      onSaid({ text: refusalOf(w, e, "updatePortalUser") ?? "", problem: true });
    },
  });
  return (
    <div className="role-control">
      <select
        aria-label={t.users.roleOf(user.email)}
        value={choice}
        disabled={save.isPending}
        onChange={(e) => setChoice(e.target.value as PortalUserRole)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t.roles[r]}
          </option>
        ))}
      </select>
      {choice !== user.role && (
        <button
          type="button"
          aria-label={t.users.saveRoleOf(user.email)}
          aria-busy={save.isPending}
          disabled={save.isPending}
          onClick={() => save.mutate(choice)}
        >
          {t.users.saveRole}
        </button>
      )}
    </div>
  );
}
