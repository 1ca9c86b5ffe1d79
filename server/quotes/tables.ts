import type { CreatedAt } from "../db/columns.ts";

/** The private keys, sealed, with the plain column they replaced (0020; dropped by its contract step). */
export const QUOTE_SEALED_COLUMNS = {
  table: "quote_signing_keys",
  columns: { private_key_sealed: "private_key" },
} as const;

/** The service's Ed25519 keys that sign quotes; each signs from `active_from` until the next one's. */
export interface QuotesTables {
  quote_signing_keys: {
    id: string;
    /** PKCS #8 PEM, sealed under the main key (secrets/main-keys.ts; 0020). */
    private_key_sealed: string;
    /** The public key, base64url (a JWK's `x`). */
    public_x: string;
    active_from: Date | string;
    created_at: CreatedAt;
  };
}
