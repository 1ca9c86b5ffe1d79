import type { CreatedAt } from "../db/columns.ts";

/** The service's Ed25519 keys that sign quotes; each signs from `active_from` until the next one's. */
export interface QuotesTables {
  quote_signing_keys: {
    id: string;
    /** PKCS #8 PEM. */
    private_key: string;
    /** The public key, base64url (a JWK's `x`). */
    public_x: string;
    active_from: Date | string;
    created_at: CreatedAt;
  };
}
