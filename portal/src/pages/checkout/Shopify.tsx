// The Checkout page's Shopify part: the steps that connect a Shopify shop, and the callback addresses Shopify's
// carrier service calls for rates, created (the address and its registration call shown once), listed and revoked
// like checkout keys.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { CarrierServiceToken, CarrierServiceTokenWithSecret } from "../../../../generated/api.ts";
import { BASE_URL } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Confirm } from "../../parts/Confirm.tsx";
import { CopyButton } from "../../parts/CopyButton.tsx";
import { ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/use-words.ts";
import { SecretOnce } from "../webhooks/Secret.tsx";
import { CALLBACKS, NewCallbackForm } from "./NewCallbackForm.tsx";
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
  const tokens = useQuery({
    queryKey: CALLBACKS,
    queryFn: ({ signal }) => unwrap(api.GET("/shopify/carrier_service_tokens", { signal })),
  });
  const [notice, setNotice] = useState<string>();
  const [created, setCreated] = useState<CarrierServiceTokenWithSecret>();
  const [revoking, setRevoking] = useState<CarrierServiceToken>();
  const revoke = useMutation({
    mutationFn: (tokenId: string) =>
      unwrap(
        api.POST("/shopify/carrier_service_tokens/{token_id}/_revoke", { params: { path: { token_id: tokenId } } }),
      ),
    onSuccess: () => {
      setRevoking(undefined);
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
        <div className="table-wrap">
          <table aria-label={w.addresses} className="stack-on-phone" aria-busy={tokens.isPending}>
            <thead>
              <tr>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.address}</th>
                <th scope="col">{w.pickupRates}</th>
                <th scope="col">{w.signed}</th>
                <th scope="col">{w.created}</th>
                <th scope="col">{w.status}</th>
                <th scope="col">
                  <span className="visually-hidden">{w.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((k) => (
                <tr key={k.id}>
                  <td data-label={w.name}>{nameOf(k)}</td>
                  <td data-label={w.address}>
                    <code>{addressHint(k)}</code>
                  </td>
                  <td data-label={w.pickupRates}>{k.pickup_rates}</td>
                  <td data-label={w.signed}>{k.has_app_secret ? t.yesNo.yes : t.yesNo.no}</td>
                  <td data-label={w.created}>{words.date(k.created_at)}</td>
                  <td data-label={w.status}>{k.revoked_at ? w.revokedAt(words.date(k.revoked_at)) : w.working}</td>
                  <td>
                    {!k.revoked_at && (
                      <button
                        type="button"
                        className="destructive outline"
                        aria-label={`${w.revoke}: ${nameOf(k)}`}
                        onClick={() => setRevoking(k)}
                      >
                        {w.revoke}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <Confirm
          title={w.revokeQuestion(nameOf(revoking))}
          confirmLabel={w.revokeAddress}
          destructive
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(undefined)}
        >
          <p>{w.revokeWhat}</p>
        </Confirm>
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
