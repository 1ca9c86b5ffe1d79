// One portal user in the list: email, role (changed in place), since when, and the actions on the person. What
// the last action on them did, or why it was refused, shows in a line of its own under the row.
import { useWords } from "../../words/index.ts";
import { RoleControl } from "./RoleControl.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import type { PortalUser } from "../../../../generated/api.ts";

/** What an action on a user did (a status) or why it was refused (an alert). */
export interface Said {
  text: string;
  problem?: boolean;
}

export const COLUMNS = 4;

export function UserRow({
  user,
  you,
  said,
  onSaid,
  onReset,
  onRemove,
}: {
  user: PortalUser;
  you: boolean;
  said?: Said;
  onSaid: (s: Said) => void;
  onReset: () => void;
  onRemove: () => void;
}) {
  const w = useWords();
  const t = w.t.users;
  return (
    <>
      <tr className={said ? "has-said" : undefined}>
        <td data-label={t.email} className="wrap-anywhere">
          {user.email}
          {you && <small className="muted">{t.you}</small>}
        </td>
        <td data-label={t.role}>
          {/* A new role from the list starts the choice anew. */}
          <RoleControl key={user.role} user={user} you={you} onSaid={onSaid} />
        </td>
        <td data-label={t.added}>{w.date(user.created_at)}</td>
        <td className="user-actions">
          {you ? (
            <a href="#/password">{t.changeYours}</a>
          ) : (
            <button type="button" className="secondary outline" aria-label={t.resetOf(user.email)} onClick={onReset}>
              {t.reset}
            </button>
          )}
          <button type="button" className="destructive outline" aria-label={t.removeOf(user.email)} onClick={onRemove}>
            {t.remove}
          </button>
        </td>
      </tr>
      {said && (
        <tr className="said">
          <td colSpan={COLUMNS}>
            {said.problem ? (
              <ProblemBanner problems={{ message: said.text, fields: {} }} />
            ) : (
              <p role="status" className="done">
                {said.text}
              </p>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
