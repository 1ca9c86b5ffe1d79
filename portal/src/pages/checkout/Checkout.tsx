// Checkout keys: the publishable keys that let the shop's checkout page show delivery options with the shipping
// picker. Listed with the code to paste, created for the shop's web addresses, revoked after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { NewKeyForm } from "./NewKeyForm.tsx";
import { Shopify } from "./Shopify.tsx";
import { snippet } from "./snippet.ts";
import { useWords, type Catalogue } from "../../words/index.ts";

export const KEYS = ["publishable_keys"] as const;
const keyName = (k: S["PublishableKey"], t: Catalogue["checkout"]) => k.name || t.unnamed;

export function Checkout(_: { rest: string[] }) {
  const api = useApi();
  const w = useWords();
  const t = w.t.checkout;
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: KEYS, queryFn: ({ signal }) => unwrap(api.GET("/publishable_keys", { signal })) });
  const [notice, setNotice] = useState<string>();
  const [revoking, setRevoking] = useState<S["PublishableKey"]>();
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: id } } })),
    onSuccess: () => {
      setRevoking(undefined);
      setNotice(t.revoked);
      return qc.invalidateQueries({ queryKey: KEYS });
    },
  });
  const items = keys.data?.items ?? [];
  const working = items.filter((k) => !k.revoked_at);

  return (
    <section>
      <hgroup>
        <h1>{t.title}</h1>
        <p>{t.about}</p>
      </hgroup>
      {notice && <p role="status">{notice}</p>}
      <ProblemBanner problems={problemsOf(w, keys.error ?? revoke.error)} />
      <div className="table-wrap">
        <table aria-label={t.keys} className="stack-on-phone" aria-busy={keys.isPending}>
          <thead>
            <tr>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.websites}</th>
              <th scope="col">{t.created}</th>
              <th scope="col">{t.status}</th>
              <th scope="col">
                <span className="visually-hidden">{t.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((k) => (
              <tr key={k.id}>
                <td data-label={t.name}>{keyName(k, t)}</td>
                <td data-label={t.websites}>{k.origins.join(", ")}</td>
                <td data-label={t.created}>{w.date(k.created_at)}</td>
                <td data-label={t.status}>{k.revoked_at ? t.revokedAt(w.date(k.revoked_at)) : t.working}</td>
                <td>
                  {!k.revoked_at && (
                    <button type="button" className="destructive outline" onClick={() => setRevoking(k)}>
                      {t.revoke}
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
          title={t.revokeQuestion(keyName(revoking, t))}
          confirmLabel={t.revokeKey}
          destructive
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(undefined)}
        >
          <p>{t.revokeWhat}</p>
        </Confirm>
      )}
      {working.map((k) => (
        <details key={k.id}>
          <summary>{t.codeFor(keyName(k, t))}</summary>
          <pre id={`code-${k.id}`} aria-label={t.codeLabel(keyName(k, t))}>
            {snippet(k.key)}
          </pre>
          <CopyButton text={snippet(k.key)} label={t.copyCode} target={`code-${k.id}`} />
        </details>
      ))}
      <NewKeyForm onCreated={(k) => setNotice(t.createdFor(k.origins.join(", ")))} />
      <Shopify />
    </section>
  );
}
