// Removing a person (someone who left), after a confirmation that says what happens: signed out at once, no
// more sign-ins. The merchant's only administrator cannot be removed: the list refuses before this asks (index.tsx),
// and the API refuses too, said in words, should the list be out of date.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { S } from "../../api.ts";
import { signedOut, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { refusalOf, USERS } from "./data.ts";
import { useWords } from "../../words/index.ts";

export function RemoveUser({
  user,
  you,
  onRemoved,
  onRefused,
  onCancel,
}: {
  user: S["PortalUser"];
  you: boolean;
  onRemoved: () => void;
  onRefused: (why: string) => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const w = useWords();
  const t = w.t.users;
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.POST("/portal_users/{user_id}/_delete", { params: { path: { user_id: user.id } } })),
    onSuccess: () => {
      // Removing yourself ends your own session: the sign-in page says why.
      if (you) return signedOut("removedYourself");
      onRemoved();
      qc.setQueryData<S["PortalUserList"]>(
        USERS,
        (list) => list && { items: list.items.filter((u) => u.id !== user.id) },
      );
      return qc.invalidateQueries({ queryKey: USERS });
    },
    onError: (e) => onRefused(refusalOf(w, e, "deletePortalUser") ?? ""),
  });
  return (
    <Confirm
      title={t.removeQuestion(user.email)}
      confirmLabel={t.removeUser}
      destructive
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onCancel}
    >
      <p>{you ? t.removeYourself : t.removeThem}</p>
    </Confirm>
  );
}
