// Checkout keys: the publishable keys that let the shop's checkout page show delivery options with the shipping
// picker. Listed with the code to paste, created for the shop's web addresses, revoked after a confirmation
// (parts/RevocableTable.tsx, as Shopify's callback addresses).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { ProblemBanner } from "../../parts/fields.tsx";
import { RevocableTable } from "../../parts/RevocableTable.tsx";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { NewKeyForm } from "./NewKeyForm.tsx";
import { Shopify } from "./Shopify.tsx";
import { snippet } from "./snippet.ts";
import { KEYS, publishableKeysQuery } from "./data.ts";
import { useWords, type Catalogue } from "../../words/index.ts";

const keyName = (k: S["PublishableKey"], t: Catalogue["checkout"]) => k.name || t.unnamed;

export function Checkout(_: { rest: string[] }) {
  const api = useApi();
  const w = useWords();
  const t = w.t.checkout;
  const qc = useQueryClient();
  const keys = useQuery(publishableKeysQuery(api));
  const [notice, setNotice] = useState<string>();
  const revoke = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: id } } })),
    onSuccess: () => {
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
      <RevocableTable
        label={t.keys}
        items={items}
        pending={keys.isPending}
        columns={[
          { label: t.name, cell: (k) => keyName(k, t) },
          { label: t.websites, cell: (k) => k.origins.join(", ") },
        ]}
        nameOf={(k) => keyName(k, t)}
        words={t}
        confirmLabel={t.revokeKey}
        revoking={revoke.isPending}
        onRevoke={(k) => revoke.mutateAsync(k.id)}
      />
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
