// Checkout keys: the publishable keys that let the shop's checkout page show delivery options with the shipping
// picker. Listed with the code to paste, created for the shop's web addresses, revoked after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatTime, type S } from "../../api.ts";
import { unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { NewKeyForm } from "./NewKeyForm.tsx";
import { Shopify } from "./Shopify.tsx";
import { snippet } from "./snippet.ts";

export const KEYS = ["publishable_keys"] as const;
const keyName = (k: S["PublishableKey"]) => k.name || "Unnamed key";

export function Checkout(_: { rest: string[] }) {
  const api = useApi();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: KEYS, queryFn: () => unwrap(api.GET("/publishable_keys")) });
  const [notice, setNotice] = useState<string>();
  const [revoking, setRevoking] = useState<S["PublishableKey"]>();
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: id } } })),
    onSuccess: () => {
      setRevoking(undefined);
      setNotice("The key was revoked: pages that use it no longer show delivery options.");
      return qc.invalidateQueries({ queryKey: KEYS });
    },
  });
  const items = keys.data?.items ?? [];
  const working = items.filter((k) => !k.revoked_at);

  return (
    <section>
      <hgroup>
        <h1>Checkout</h1>
        <p>
          Keys that let your shop's checkout page show your delivery options and prices with the shipping picker. A key
          works only on the websites you list, and only for delivery options: it is safe in your page's code.
        </p>
      </hgroup>
      {notice && <p role="status">{notice}</p>}
      <div className="table-wrap">
        <table aria-label="Checkout keys" className="stack-on-phone" aria-busy={keys.isPending}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Websites</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((k) => (
              <tr key={k.id}>
                <td data-label="Name">{keyName(k)}</td>
                <td data-label="Websites">{k.origins.join(", ")}</td>
                <td data-label="Created">{formatTime(k.created_at)}</td>
                <td data-label="Status">{k.revoked_at ? `Revoked ${formatTime(k.revoked_at)}` : "Working"}</td>
                <td>
                  {!k.revoked_at && (
                    <button type="button" className="destructive outline" onClick={() => setRevoking(k)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {revoking && (
        <Confirm
          title={`Revoke ${keyName(revoking)}?`}
          confirmLabel="Revoke key"
          destructive
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(undefined)}
        >
          <p>Pages using this key stop showing delivery options at once. This cannot be undone.</p>
        </Confirm>
      )}
      {working.map((k) => (
        <details key={k.id}>
          <summary>Code for your checkout page: {keyName(k)}</summary>
          <pre id={`code-${k.id}`} aria-label={`Code for ${keyName(k)}`}>
            {snippet(k.key)}
          </pre>
          <CopyButton text={snippet(k.key)} label="Copy code" target={`code-${k.id}`} />
        </details>
      ))}
      <NewKeyForm
        onCreated={(k) => setNotice(`Key created for ${k.origins.join(", ")}. Paste its code into your checkout page.`)}
      />
      <Shopify />
    </section>
  );
}
