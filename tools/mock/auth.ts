// Who is calling, on the mock: the server's own authenticate() (the same 401s, the same CSRF rule), where any
// well-formed Basic credentials pass, any portal session cookie is the session of the spec's portal sign-in example
// and any station session cookie that of its station sign-in example.
import type { Principal } from "../../server/accounts/domain.ts";
import { parseUsername } from "../../server/accounts/domain.ts";
import { authenticate } from "../../server/auth/authenticate.ts";
import { ANY_ORIGIN } from "../../server/http/cors.ts";
import { TOKEN_PATTERN } from "../../server/publishable-keys/keys.ts";
import { specDocument } from "../../server/shared/spec-document.ts";
import { stationPrincipalName } from "../../server/warehouse/sessions.ts";
import type { components } from "../../generated/api.ts";

type PortalSession = components["schemas"]["PortalSession"];
type StationSession = components["schemas"]["StationSession"];

/** The example answer of a sign-in operation of the spec. */
function signInExample<T>(path: string): T {
  const doc = specDocument() as {
    paths: Record<string, { post: { responses: Record<string, { content: Record<string, { example: unknown }> }> } }>;
  };
  return doc.paths[path]!.post.responses["201"]!.content["application/json"]!.example as T;
}

export function mockAuthenticate() {
  const example = signInExample<PortalSession>("/portal_sessions/_create");
  const session: Principal = {
    role: "merchant",
    id: example.user.merchant_id,
    name: `M-${example.user.merchant_id}`,
    session: {
      cookie: "portal_session",
      tokenHash: "",
      csrfToken: example.csrf_token,
      expiresAt: new Date(example.expires_at),
      user: example.user,
      userRole: example.user.role,
      mustChangePassword: example.must_change_password,
    },
  };
  const station = signInExample<StationSession>("/station_sessions/_create");
  const stationSession: Principal = {
    role: "operator",
    id: station.user.id,
    name: stationPrincipalName(station.user.id),
    session: {
      cookie: "station_session",
      tokenHash: "",
      csrfToken: station.csrf_token,
      expiresAt: new Date(station.expires_at),
      user: station.user,
      // The example's user is a receiver; the mock's station sessions may do what a supervisor may, so that every
      // operation a station session can call answers its example.
      userRole: "supervisor",
      mustChangePassword: station.must_change_password,
    },
  };
  return authenticate(
    {
      verify: async (username) => {
        const account = parseUsername(username);
        return account && { ...account, name: `${account.role === "merchant" ? "M" : "W"}-${account.id}` };
      },
      // Any well-formed publishable key is a key of the sign-in example's merchant, allowed on every origin.
      verifyPublishable: async (token) =>
        TOKEN_PATTERN.test(token)
          ? {
              role: "merchant",
              id: example.user.merchant_id,
              name: `P-${token}`,
              publishable: { keyId: token, origins: [ANY_ORIGIN] },
            }
          : undefined,
    },
    { portal_session: async () => session, station_session: async () => stationSession },
  );
}
