// Svenska: kassaavsnittets egna ord (kassanycklarna för leveranssättsväljaren).
import type { Catalogue } from "../catalogue.ts";

export const checkout: Pick<Catalogue, "checkout"> = {
  checkout: {
    title: "Kassan",
    about:
      "Nycklar som låter din butiks kassasida visa dina leveranssätt och priser med leveranssättsväljaren. En nyckel fungerar bara på de webbplatser du anger, och bara för leveranssätt: den kan tryggt stå i sidans kod.",
    unnamed: "Namnlös nyckel",
    revoked: "Nyckeln återkallades: sidor som använder den visar inte längre leveranssätt.",
    keys: "Kassanycklar",
    name: "Namn",
    websites: "Webbplatser",
    created: "Skapad",
    status: "Status",
    actions: "Åtgärder",
    revokedAt: (when) => `Återkallad ${when}`,
    working: "I bruk",
    revoke: "Återkalla",
    revokeQuestion: (name) => `Återkalla ${name}?`,
    revokeKey: "Återkalla nyckeln",
    revokeWhat: "Sidor som använder nyckeln slutar genast visa leveranssätt. Det kan inte ångras.",
    codeFor: (name) => `Kod för din kassasida: ${name}`,
    codeLabel: (name) => `Kod för ${name}`,
    copyCode: "Kopiera koden",
    createdFor: (origins) => `Nyckeln skapades för ${origins}. Klistra in dess kod på din kassasida.`,
    newKey: "Ny kassanyckel",
    createTitle: "Skapa en nyckel",
    nameField: "Namn (för dig, t.ex. butikens namn)",
    originsField: "Webbplatser som får använda den, en per rad",
    originsExample: "https://butik.exempel.se",
    create: "Skapa nyckel",
  },
};
