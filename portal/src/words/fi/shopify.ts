// Suomi: Kassa-sivun Shopify-osa.
import type { Catalogue } from "../catalogue.ts";

export const shopify: Pick<Catalogue, "shopify"> = {
  shopify: {
    title: "Shopify",
    about:
      "Shopify-kaupan kassa voi kysyä meiltä toimitustapasi: kotiinkuljetuksen, kirjeen ja ostajaa lähimmät noutopisteet hinnastojesi hinnoilla ja toimituspäivineen. Shopify kutsuu niitä varten salaista osoitettasi.",
    stepsTitle: "Yhdistä Shopify-kauppasi",
    stepPlan:
      "Tarkista, että Shopify-tilaukseesi kuuluu kuljetusyhtiön laskema toimitushinta (carrier-calculated shipping). Advanced- ja Plus-tilauksiin se kuuluu, muihin Shopify voi lisätä sen.",
    stepApp: "Tee kaupallesi Shopify-sovellus, joka saa muuttaa toimitusasetuksia (write_shipping-oikeus).",
    stepAddress:
      "Luo alla kutsuosoite ja kopioi se: se näytetään vain kerran. Lisää sovelluksesi salainen avain, jos haluat jokaisen kutsun allekirjoituksen tarkistettavan.",
    stepRegister:
      "Rekisteröi osoite Shopifyhin sovelluksellasi: lähetettävä kutsu näytetään osoitteen kanssa (carrierServiceCreate).",
    stepZones: "Lisää Shopifyn toimitusasetuksissa tämän palvelun hinnat toimitusalueillesi.",
    addresses: "Shopifyn kutsuosoitteet",
    name: "Nimi",
    address: "Osoite",
    pickupRates: "Tarjottavat noutopisteet",
    signed: "Allekirjoitus tarkistetaan",
    created: "Luotu",
    status: "Tila",
    actions: "Toiminnot",
    unnamed: "Nimetön osoite",
    working: "Käytössä",
    revokedAt: (when) => `Poistettu käytöstä ${when}`,
    revoke: "Poista käytöstä",
    revokeQuestion: (name) => `Poistetaanko ${name} käytöstä?`,
    revokeAddress: "Poista osoite käytöstä",
    revokeWhat: "Shopify ei saa tästä osoitteesta enää hintoja, heti, ja näyttää kaupan varahinnat. Tätä ei voi perua.",
    revoked: "Osoite poistettiin käytöstä: Shopify näyttää nyt kaupan varahinnat.",
    form: "Uusi Shopifyn kutsuosoite",
    createTitle: "Luo kutsuosoite",
    nameField: "Nimi (sinua varten, esim. kaupan nimi)",
    pickupRatesField: "Montako lähintä noutopistettä tarjotaan",
    tagPropertiesField: "Tuoteominaisuudet, joiden arvot ovat hinnoittelusääntöjesi tunnisteita, yksi riviä kohden",
    tagPropertiesHint: "Esimerkiksi _shipping_tag. Jätä tyhjäksi, jos hinnoittelusääntösi eivät käytä tunnisteita.",
    appSecretField: "Shopify-sovelluksesi salainen avain (vapaaehtoinen)",
    appSecretHint:
      "Sen kanssa kutsu ilman Shopifyn allekirjoitusta ei saa hintoja. Se tallennetaan salattuna eikä sitä näytetä uudelleen.",
    create: "Luo osoite",
    createdTitle: "Kutsuosoitteesi (näytetään kerran)",
    createdAbout:
      "Kopioi se nyt ja rekisteröi se Shopifyhin: sitä ei näytetä uudelleen. Kuka tahansa, jolla se on, saa hintasi, joten pidä se piilossa.",
    callTitle: "Kutsu, joka rekisteröi sen Shopifyhin (GraphQL Admin API)",
    copyCall: "Kopioi kutsu",
  },
};
