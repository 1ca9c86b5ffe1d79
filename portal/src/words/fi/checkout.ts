// Suomi: Kassa-osion omat sanat (toimitustapavalitsimen kassa-avaimet).
import type { Catalogue } from "../catalogue.ts";

export const checkout: Pick<Catalogue, "checkout"> = {
  checkout: {
    title: "Kassa",
    about:
      "Avaimet, joilla kauppasi kassasivu näyttää toimitustapasi ja hintasi toimitustapavalitsimella. Avain toimii vain luettelemillasi verkkosivuilla ja vain toimitustapoihin: sen voi turvallisesti laittaa sivusi koodiin.",
    unnamed: "Nimetön avain",
    revoked: "Avain mitätöitiin: sitä käyttävät sivut eivät enää näytä toimitustapoja.",
    keys: "Kassa-avaimet",
    name: "Nimi",
    websites: "Verkkosivut",
    created: "Luotu",
    status: "Tila",
    actions: "Toiminnot",
    revokedAt: (when) => `Mitätöity ${when}`,
    working: "Käytössä",
    revoke: "Mitätöi",
    revokeQuestion: (name) => `Mitätöidäänkö ${name}?`,
    revokeKey: "Mitätöi avain",
    revokeWhat: "Tätä avainta käyttävät sivut lakkaavat heti näyttämästä toimitustapoja. Tätä ei voi kumota.",
    codeFor: (name) => `Koodi kassasivullesi: ${name}`,
    codeLabel: (name) => `Koodi: ${name}`,
    copyCode: "Kopioi koodi",
    createdFor: (origins) => `Avain luotu sivuille ${origins}. Liitä sen koodi kassasivullesi.`,
    newKey: "Uusi kassa-avain",
    createTitle: "Luo avain",
    nameField: "Nimi (sinua varten, esim. kaupan nimi)",
    originsField: "Verkkosivut, jotka saavat käyttää sitä, yksi riville",
    originsExample: "https://kauppa.esimerkki.fi",
    create: "Luo avain",
  },
};
