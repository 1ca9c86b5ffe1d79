// Who is calling, on the mock: the server's own authenticate() (the same 401s, the same CSRF rule), where any
// well-formed Basic credentials pass and any portal session cookie is the session of the spec's sign-in example.
import type { Principal } from "../../server/accounts/domain.ts";
import { parseUsername } from "../../server/accounts/domain.ts";
import { authenticate } from "../../server/auth/authenticate.ts";
import { ANY_ORIGIN } from "../../server/http/cors.ts";
import { TOKEN_PATTERN } from "../../server/publishable-keys/keys.ts";
import { specDocument } from "../../server/shared/spec-document.ts";
import type { components } from "../../generated/api.ts";

type PortalSession = components["schemas"]["PortalSession"];

function signInExample(): PortalSession {
  const doc = specDocument() as {
    paths: Record<string, { post: { responses: Record<string, { content: Record<string, { example: unknown }> }> } }>;
  };
  return doc.paths["/portal_sessions/_create"]!.post.responses["201"]!.content["application/json"]!
    .example as PortalSession;
}

export function mockAuthenticate() {
  const example = signInExample();
  const session: Principal = {
    role: "merchant",
    id: example.user.merchant_id,
    name: `M-${example.user.merchant_id}`,
    session: {
      tokenHash: "",
      csrfToken: example.csrf_token,
      expiresAt: new Date(example.expires_at),
      user: example.user,
      userRole: example.user.role,
      mustChangePassword: example.must_change_password,
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
    async () => session,
  );
}
