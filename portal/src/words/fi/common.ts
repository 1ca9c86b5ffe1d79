// Suomi: kehys jokaisen näkymän ympärillä (yläpalkki, kirjautuminen, salasanan vaihto) ja yhteisten osien sanat.
import type { Catalogue } from "../catalogue.ts";

export const common: Pick<Catalogue, "common"> = {
  common: {
    brand: "Logistiikkaportaali",
    documentTitle: "Kauppiasportaali · Logistiikka-API",
    main: "Päävalikko",
    areas: {
      shipments: "Lähetykset",
      pricing: "Hinnoittelu",
      webhooks: "Webhookit",
      checkout: "Kassa",
      users: "Käyttäjät",
    },
    account: "Tili",
    changePassword: "Vaihda salasana",
    signOut: "Kirjaudu ulos",
    loading: "Ladataan…",
    breadcrumb: "Murupolku",
    cancel: "Peruuta",
    copy: "Kopioi",
    copied: "Kopioitu.",
    selectedToCopy: "Valittu: kopioi painamalla Ctrl+C (tai ⌘C).",

    portalTitle: "Kauppiasportaali",
    signInAbout: "Kirjaudu sillä sähköpostiosoitteella ja salasanalla, jonka pääkäyttäjä antoi sinulle.",
    signInForm: "Kirjautuminen",
    whichShop: (email) => `${email} on käytössä useammassa kaupassa. Minkä kaupan haluat avata?`,
    email: "Sähköposti",
    password: "Salasana",
    signIn: "Kirjaudu sisään",
    openShop: "Avaa tämä kauppa",
    otherEmail: "Käytä toista sähköpostiosoitetta",

    chooseTitle: "Valitse uusi salasana",
    changeTitle: "Vaihda salasanasi",
    chooseAbout:
      "Pääkäyttäjä vaihtoi salasanasi. Ennen kuin jatkat, valitse oma uusi salasana: kirjoita saamasi väliaikainen salasana ja sitten uusi salasanasi kahdesti.",
    changeAbout:
      "Kirjoita nykyinen salasanasi ja sitten uusi salasanasi kahdesti. Pysyt kirjautuneena täällä; kaikkialla muualla sinut kirjataan ulos.",
    temporaryPassword: "Väliaikainen salasana",
    currentPassword: "Nykyinen salasana",
    newPassword: (min) => `Uusi salasana (vähintään ${min} merkkiä)`,
    newPasswordAgain: "Uusi salasana uudelleen",
    notSame: "Uudet salasanat eivät ole samat: kirjoita uusi salasana uudelleen.",
    changed: "Salasanasi on vaihdettu. Käytä uutta, kun kirjaudut seuraavan kerran.",
    saveNewPassword: "Tallenna uusi salasanani",
  },
};
