// One portal user in the list: email, role (changed in place), since when, and the actions on the person. What
// the last action on them did, or why it was refused, shows in a line of its own under the row.
import { formatTime } from "../../api.ts";
import { RoleControl } from "./RoleControl.tsx";
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
  return (
    <>
      <tr className={said ? "has-said" : undefined}>
        <td data-label="Email" className="wrap-anywhere">
          {user.email}
          {you && <small className="muted"> (you)</small>}
        </td>
        <td data-label="Role">
          {/* A new role from the list starts the choice anew. */}
          <RoleControl key={user.role} user={user} you={you} onSaid={onSaid} />
        </td>
        <td data-label="Added">{formatTime(user.created_at)}</td>
        <td className="user-actions">
          {you ? (
            <a href="#/password">Change your password</a>
          ) : (
            <button
              type="button"
              className="secondary outline"
              aria-label={`Reset password of ${user.email}`}
              onClick={onReset}
            >
              Reset password
            </button>
          )}
          <button type="button" className="destructive outline" aria-label={`Remove ${user.email}`} onClick={onRemove}>
            Remove
          </button>
        </td>
      </tr>
      {said && (
        <tr className="said">
          <td colSpan={COLUMNS}>
            <p role={said.problem ? "alert" : "status"} className={said.problem ? "problem" : "done"}>
              {said.text}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}
