// HTTP Basic credentials: `M-<merchant_id>` or `W-<operator_id>` with the account's secret (verified by
// accounts/domain.ts's Authenticator).

/** The user and secret of an `Authorization: Basic ...` header; undefined when it is absent or malformed. */
export function parseBasic(header: string | undefined): { user: string; secret: string } | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]{1,2000})$/i.exec(header ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) return undefined;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
