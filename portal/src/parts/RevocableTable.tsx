// A list of credentials a shop hands out and takes back (checkout keys, Shopify callback addresses): one table of
// them, newest as the service lists them, each with its own columns, when it was created, whether it still works,
// and Revoke after a confirmation. The caller owns the revoke request (its failure goes to the page's banner).
import { useState, type ReactNode } from "react";
import { useWords } from "../words/index.ts";
import { Confirm } from "./Confirm.tsx";

export interface Revocable {
  id: string;
  created_at: string;
  revoked_at?: string | null;
}

/** The words a revocable list says, in the page's own catalogue part (checkout's, shopify's). */
export interface RevocableWords {
  created: string;
  status: string;
  actions: string;
  working: string;
  revokedAt: (when: string) => string;
  revoke: string;
  revokeQuestion: (name: string) => string;
  revokeWhat: string;
}

export interface RevocableTableProps<T extends Revocable> {
  /** The table's name, e.g. "Checkout keys". */
  label: string;
  items: T[];
  pending: boolean;
  /** The item's own columns, before Created and Status. */
  columns: { label: string; cell: (item: T) => ReactNode }[];
  nameOf: (item: T) => string;
  words: RevocableWords;
  /** The confirmation's button, e.g. "Revoke key". */
  confirmLabel: string;
  /** The Revoke button's accessible name, where the row's name must be in it; the visible word otherwise. */
  revokeLabelOf?: (item: T) => string;
  revoking: boolean;
  /** Revokes the item; resolves once the list is reloaded (the confirmation then closes). */
  onRevoke: (item: T) => Promise<unknown>;
}

export function RevocableTable<T extends Revocable>({
  label,
  items,
  pending,
  columns,
  nameOf,
  words: t,
  confirmLabel,
  revokeLabelOf,
  revoking,
  onRevoke,
}: RevocableTableProps<T>) {
  const w = useWords();
  const [asked, setAsked] = useState<T>();
  return (
    <>
      <div className="table-wrap">
        <table aria-label={label} className="stack-on-phone" aria-busy={pending}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col">
                  {c.label}
                </th>
              ))}
              <th scope="col">{t.created}</th>
              <th scope="col">{t.status}</th>
              <th scope="col">
                <span className="visually-hidden">{t.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                {columns.map((c) => (
                  <td key={c.label} data-label={c.label}>
                    {c.cell(item)}
                  </td>
                ))}
                <td data-label={t.created}>{w.date(item.created_at)}</td>
                <td data-label={t.status}>{item.revoked_at ? t.revokedAt(w.date(item.revoked_at)) : t.working}</td>
                <td>
                  {!item.revoked_at && (
                    <button
                      type="button"
                      className="destructive outline"
                      aria-label={revokeLabelOf?.(item)}
                      onClick={() => setAsked(item)}
                    >
                      {t.revoke}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {asked && (
        <Confirm
          title={t.revokeQuestion(nameOf(asked))}
          confirmLabel={confirmLabel}
          destructive
          busy={revoking}
          onConfirm={() =>
            void onRevoke(asked).then(
              () => setAsked(undefined),
              () => undefined,
            )
          }
          onCancel={() => setAsked(undefined)}
        >
          <p>{t.revokeWhat}</p>
        </Confirm>
      )}
    </>
  );
}
