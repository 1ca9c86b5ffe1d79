// The Checkout page's Shopify part: the steps that connect a Shopify shop, and the callback addresses Shopify's
// carrier service calls for rates, created (the address and its registration call shown once), listed and revoked
// like checkout keys.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { CarrierServiceToken, CarrierServiceTokenWithSecret } from "../../../../generated/api.ts";
import { BASE_URL } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import { RevocableTable } from "../../parts/RevocableTable.tsx";
import { useWords } from "../../words/use-words.ts";
import { SecretOnce } from "../webhooks/Secret.tsx";
import { CALLBACKS, callbacksQuery } from "./data.ts";
import { NewCallbackForm } from "./NewCallbackForm.tsx";
import { registrationCall } from "./shopify-call.ts";

/** The shown part of a callback address (the rest was shown once): a path, as code. */
const addressHint = (k: CarrierServiceToken) => `…/carrier_service/${k.token_hint}…`;

export function Shopify() {
  const api = useApi();
  const qc = useQueryClient();
  const words = useWords();
  const { t } = words;
  const w = t.shopify;
  const id = useId().replace(/:/g, "");
  const tokens = useQuery(callbacksQuery(api));
  const [notice, setNotice] = useState<string>();
  const [created, setCreated] = useState<CarrierServiceTokenWithSecret>();
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      unwrap(
        api.POST("/shopify/carrier_service_tokens/{token_id}/_revoke", { params: { path: { token_id: tokenId } } }),
      ),
    onSuccess: () => {
      setNotice(w.revoked);
      return qc.invalidateQueries({ queryKey: CALLBACKS });
    },
  });
  const nameOf = (k: CarrierServiceToken) => k.name || w.unnamed;
  const items = tokens.data?.items ?? [];
  const url = created && `${BASE_URL}${created.callback_url}`;

  return (
    <section aria-labelledby={`${id}-title`}>
      <hgroup>
        <h2 id={`${id}-title`}>{w.title}</h2>
        <p>{w.about}</p>
      </hgroup>
      <h3>{w.stepsTitle}</h3>
      <ol>
        <li>{w.stepPlan}</li>
        <li>{w.stepApp}</li>
        <li>{w.stepAddress}</li>
        <li>{w.stepRegister}</li>
        <li>{w.stepZones}</li>
      </ol>
      {notice && <p role="status">{notice}</p>}
      <ProblemBanner problems={problemsOf(words, tokens.error ?? revoke.error)} />
      {created && url && (
        <SecretOnce title={w.createdTitle} secret={url} onDone={() => setCreated(undefined)}>
          <p>{w.createdAbout}</p>
          <details>
            <summary>{w.callTitle}</summary>
            <pre id={`${id}-call`} aria-label={w.callTitle}>
              {registrationCall(url)}
            </pre>
            <CopyButton text={registrationCall(url)} label={w.copyCall} target={`${id}-call`} />
          </details>
        </SecretOnce>
      )}
      {items.length > 0 && (
        <RevocableTable
          label={w.addresses}
          items={items}
          pending={tokens.isPending}
          columns={[
            { label: w.name, cell: nameOf },
            { label: w.address, cell: (k) => <code>{addressHint(k)}</code> },
            { label: w.pickupRates, cell: (k) => k.pickup_rates },
            { label: w.signed, cell: (k) => (k.has_app_secret ? t.yesNo.yes : t.yesNo.no) },
          ]}
          nameOf={nameOf}
          words={w}
          confirmLabel={w.revokeAddress}
          revokeLabelOf={(k) => `${w.revoke}: ${nameOf(k)}`}
          revoking={revoke.isPending}
          onRevoke={(k) => revoke.mutateAsync(k.id)}
        />
      )}
      <NewCallbackForm
        onCreated={(k) => {
          setNotice(undefined);
          setCreated(k);
        }}
      />
    </section>
  );
}
