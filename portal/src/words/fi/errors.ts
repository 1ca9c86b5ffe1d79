// Suomi: mitä virhevastaus ja sen kenttäkohtaiset ongelmat sanovat kaupan pitäjälle. Kentän nimi on
// perusmuodossa ("Anna nimi.", "Nimi on liian pitkä").
import type { Catalogue, Say } from "../catalogue.ts";

type Errors = Pick<Catalogue, "answers" | "signIn" | "language" | "cut" | "details" | "shapes" | "statusNow">;

const reload = "lataa sivu uudelleen ja yritä uudestaan";
const check = (s: Say) => `Tarkista ${s.l}.`;
const enter = (s: Say) => (s.item ? `Lisää vähintään yksi ${s.item.one}.` : `Anna ${s.l}.`);
const twoDecimals = (s: Say) => `Anna ${s.l} enintään kahden desimaalin tarkkuudella.`;
const tooMany = (s: Say) =>
  s.item && s.n ? `Enintään ${s.n} ${s.item.many}: poista osa.` : `${s.L}: liian monta, poista osa.`;
const url = "esimerkiksi https://kauppa.example.com/webhooks";
const wholeUrl = `Anna koko verkko-osoite https://-alkuisena, ${url}.`;
const origin =
  "Anna vain verkkokaupan osoite, esimerkiksi https://kauppa.example.com, ilman polkua ja loppukauttaviivaa.";

export const errors: Errors = {
  answers: {
    validation_failed: "Osa tiedoista pitää korjata: katso merkityt kentät.",
    unauthorized: "Et ole kirjautunut sisään, tai istuntosi on päättynyt: kirjaudu uudelleen.",
    access_denied: "Sinulla ei ole oikeutta tähän. Pyydä apua kauppasi pääkäyttäjältä.",
    not_found: "Tätä ei löytynyt: se on ehkä poistettu. Palaa listaan.",
    method_not_allowed: `Palvelu ei salli tätä tässä: ${reload}.`,
    conflict: "Muutos ei sovi yhteen nykytilanteen kanssa: lataa sivu nähdäksesi uusimmat tiedot ja yritä uudelleen.",
    invalid_state: "Tätä ei voi tehdä lähetyksen nykyisessä tilassa.",
    ambiguous_reference:
      "Usealla lähetyksellä on tämä viite. Lue lähetyksen tarran viivakoodi tai valitse lähetys luettelosta.",
    cursor_from_other_history:
      "Tapahtumaluettelo palautettiin aiempaan kohtaan, kun palvelu palautettiin varmuuskopiosta: aloita sen lukeminen alusta.",
    precondition_failed:
      "Joku muu tallensi muutoksia sillä välin: lataa sivu nähdäksesi ne ja tee sitten omat muutoksesi uudelleen.",
    payload_too_large: "Tätä on liikaa lähetettäväksi kerralla: jaa se pienempiin osiin.",
    unsupported_media_type: `Selain lähetti tiedot muodossa, jota palvelu ei hyväksy: ${reload}.`,
    idempotency_key_reused: `Tämä on jo lähetetty eri sisällöllä: ${reload}.`,
    rate_limited: "Liian monta yritystä lyhyessä ajassa: odota hetki ja yritä uudelleen.",
    headers_too_large:
      "Selain lähetti liikaa lisätietoja (usein liikaa evästeitä): tyhjennä tämän sivuston evästeet ja kirjaudu uudelleen.",
    unknown: "Palvelussa tapahtui virhe: yritä uudelleen. Jos virhe toistuu, ota yhteyttä tukeen.",
    not_implemented: "Tämä ei ole vielä käytettävissä.",
    unavailable: "Palvelu ei ole juuri nyt käytettävissä: yritä hetken päästä uudelleen.",
    merchant_choice_required: "Tällä sähköpostiosoitteella voi kirjautua useaan kauppaan: valitse, mihin kirjaudut.",
    unexpected_response: "Palvelu vastasi tavalla, jota portaali ei ymmärtänyt: yritä hetken päästä uudelleen.",
    unreachable: "Palveluun ei saada yhteyttä: tarkista verkkoyhteys ja yritä uudelleen.",
  },
  signIn: {
    unauthorized: "Sähköpostiosoite tai salasana on väärin.",
    rate_limited: "Liian monta epäonnistunutta kirjautumista: odota hetki ennen kuin yrität uudelleen.",
    removedYourself:
      "Poistit itsesi tämän kaupan portaalista, joten sinut on kirjattu ulos. Pyydä ylläpitäjää, jos tarvitset pääsyn uudelleen.",
  },
  language: "Kieli",
  cut: (total) =>
    `Ongelmia on ${total}, ja niistä näytetään ensimmäiset 50: korjaa ne ja tallenna uudelleen nähdäksesi loput.`,
  statusNow: (status) => `Lähetyksen tila on nyt ”${status}”.`,

  details: {
    type: (s) =>
      s.type === "integer"
        ? `Anna ${s.l} kokonaislukuna.`
        : s.type === "number"
          ? `Anna ${s.l} lukuna.`
          : s.type === "boolean"
            ? `Valitse ${s.l}: kyllä tai ei.`
            : s.type === "string"
              ? `Anna ${s.l} tekstinä.`
              : check(s),
    required: enter,
    additionalProperties: () => `Lomake lähetti tiedon, jota palvelu ei hyväksy: ${reload}.`,
    minLength: (s) => (!s.count || s.count <= 1 ? enter(s) : `${s.L} on liian lyhyt: käytä vähintään ${s.n} merkkiä.`),
    maxLength: (s) =>
      s.n ? `${s.L} on liian pitkä: käytä enintään ${s.n} merkkiä.` : `${s.L} on liian pitkä: lyhennä sitä.`,
    pattern: (s) => `Tarkista ${s.l}: muoto ei kelpaa.`,
    format: (s) => `Tarkista ${s.l}: muoto ei kelpaa.`,
    enum: (s) => `Valitse ${s.l} listasta.`,
    const: check,
    minimum: (s) =>
      s.field === "transit_days_max"
        ? `${s.L} ei voi olla vähemmän kuin kuljetuksen vähimmäispäivät.`
        : s.n
          ? `${s.L} on liian pieni: anna vähintään ${s.n}.`
          : `${s.L} on liian pieni.`,
    maximum: (s) => (s.n ? `${s.L} on liian suuri: anna enintään ${s.n}.` : `${s.L} on liian suuri.`),
    exclusiveMinimum: (s) => (s.n ? `${s.L} on liian pieni: anna enemmän kuin ${s.n}.` : `${s.L} on liian pieni.`),
    exclusiveMaximum: (s) => (s.n ? `${s.L} on liian suuri: anna vähemmän kuin ${s.n}.` : `${s.L} on liian suuri.`),
    multipleOf: twoDecimals,
    minItems: (s) =>
      s.item
        ? !s.count || s.count <= 1
          ? `Lisää vähintään yksi ${s.item.one}.`
          : `Lisää vähintään ${s.n} ${s.item.many}.`
        : check(s),
    maxItems: tooMany,
    uniqueItems: (s) =>
      s.item
        ? `Sama ${s.item.one} on listassa kahdesti: poista kaksoiskappale.`
        : `Tarkista ${s.l}: siinä on kaksoiskappaleita.`,
    minProperties: () => "Mitään ei muutettu: muuta jotain ennen tallentamista.",
    maxProperties: check,
    propertyNames: () => `Lomake lähetti tiedon, jota palvelu ei hyväksy: ${reload}.`,
    unevaluatedProperties: () => `Lomake lähetti tiedon, jota palvelu ei hyväksy: ${reload}.`,
    items: check,
    prefixItems: check,
    oneOf: check,
    anyOf: check,
    allOf: check,
    not: check,

    json: () => `Lähetettyä tietoa ei voitu lukea: ${reload}.`,
    encoding: () => `Lähetetyssä tiedossa on merkkejä, joita ei voitu lukea: ${reload}.`,
    aborted: () => "Yhteys katkesi ennen kuin kaikki ehdittiin lähettää: yritä uudelleen.",
    nul: (s) => `Kirjoita ${s.l} uudelleen: siinä on näkymätön ohjausmerkki.`,
    unicode: (s) => `Kirjoita ${s.l} uudelleen: siinä on rikkinäinen merkki.`,
    depth: () => `Lähetetty tieto on liian monitasoinen: ${reload}.`,
    duplicate_key: (s) => `${s.L} lähetettiin kahdesti: ${reload}.`,
    not_allowed: (s) =>
      s.field === "problems"
        ? "Ongelmia voi kirjata vain, kun lähetyksen tilaksi asetetaan ”Ongelma”."
        : `Tähän toimintoon ei lähetetä lomakkeen tietoja: ${reload}.`,
    method: () => "Selain lähetti pyynnön, jota palvelu ei tunne: lataa sivu uudelleen.",
    cursor: () => "Sivulinkki ei enää toimi: palaa ensimmäiselle sivulle.",
    stale: () => "Joku muu muutti tätä sillä välin: lataa sivu nähdäksesi muutokset ja tee sitten omasi uudelleen.",

    duplicate: (s) =>
      s.field === "authorization"
        ? "Kirjaudu uudelleen."
        : "Sama tuotekoodi on myös toisella rivillä: yhdistä rivit yhdeksi.",
    gtin: () => "GTIN-koodin viimeinen numero ei täsmää muihin: tarkista koodi.",
    decimals: twoDecimals,
    future: (s) => `${s.L} ei voi olla tulevaisuudessa.`,
    too_early: (s) => `${s.L} on liian kaukana menneisyydessä: käytä aikaa vuoden 2000 jälkeen.`,
    below_zero: () => "Saapuneiden tuotteiden määrä menisi alle nollan: tarkista muutos.",
    above_maximum: (s) =>
      s.n
        ? `Saapuneiden tuotteiden määrä kasvaisi liian suureksi: enintään ${s.n}.`
        : "Saapuneiden tuotteiden määrä kasvaisi liian suureksi.",
    below_arrived: () => "Tätä tuotetta on jo saapunut enemmän: anna vähintään saapunut määrä.",
    has_arrivals: () => "Jo saapunutta tuotetta ei voi poistaa lähetyksestä: säilytä sen rivi.",

    unique: (s) =>
      s.field === "method"
        ? "Tälle toimitustavalle on jo hinnasto: muokkaa sitä."
        : s.field === "email"
          ? "Tällä sähköpostiosoitteella on jo portaalin käyttäjä."
          : `${s.L} on jo käytössä.`,
    unknown_fact: () => "Valitse tarkistettava tieto listasta.",
    operator_not_applicable: () => "Tämä vertailu ei sovi tarkistettavaan tietoon: valitse toinen.",
    too_large: () => "Hinnasto on liian suuri: käytä vähemmän sääntöjä tai lyhyempiä arvoluetteloita.",
    unknown_pickup_point: () => "Noutopistettä ei enää ole: valitse toinen.",
    quote_invalid: () => "Hintatarjous ei kelpaa: hae toimitusvaihtoehdot uudelleen.",
    quote_expired: () => "Hintatarjous on vanhentunut: hae toimitusvaihtoehdot uudelleen.",
    quote_not_yours: () => "Hintatarjous on annettu toiselle kaupalle.",
    quote_facts: () => "Tilaus on muuttunut hintatarjouksen jälkeen: hae toimitusvaihtoehdot uudelleen.",
    quote_destination: () =>
      "Hintatarjous koskee toista toimitusvalintaa: valitse uudelleen tai hae uudet toimitusvaihtoehdot.",
    quote_unavailable: () =>
      "Tilausta ei voi toimittaa hintatarjouksen tavalla: hae tilauksen toimitusvaihtoehdot ja valitse uudelleen.",
    quote_price: () =>
      "Tilauksen toimitus maksaa eri hinnan kuin hintatarjouksessa: hae tilauksen toimitusvaihtoehdot uudelleen.",

    invalid_url: () => wholeUrl,
    unsupported_scheme: () => "Verkko-osoitteen pitää alkaa https:// tai http://.",
    credentials_in_url: () =>
      "Poista käyttäjätunnus ja salasana verkko-osoitteesta ja anna ne vastaanottajan kirjautumistietoihin.",
    missing_host: () => wholeUrl,
    destination_not_allowed: () =>
      `Osoite ei ole julkisessa internetissä: käytä osoitetta, johon palvelu pääsee, ${url}.`,
    origin: () => origin,

    length: (s) => `${s.L} on liian lyhyt tai liian pitkä.`,
    wrong_password: () => "Nykyinen salasana on väärin.",
    unchanged: () => "Uuden salasanan pitää olla eri kuin nykyisen.",
    last_admin: () => "Tämä on kaupan ainoa pääkäyttäjä: tee ensin joku muu pääkäyttäjäksi.",
    must_change_password: () => "Vaihda salasanasi ennen kuin jatkat.",
    range: () => "Viimeinen päivä ei voi olla ennen ensimmäistä.",
    differences: () => "Kaikki tuotteet eivät saapuneet ilmoitetusti: vain esimies voi päättää vastaanoton eroineen.",
  },

  shapes: {
    gtin: () => "GTIN-koodissa on 8, 12, 13 tai 14 numeroa: tarkista koodi.",
    email: () => "Anna sähköpostiosoite muodossa nimi@example.com.",
    url: () => wholeUrl,
    origin: () => origin,
    date: (s) => `Tarkista ${s.l}: valitse päivämäärä kalenterista.`,
    datetime: (s) => `Tarkista ${s.l}: anna päivämäärä ja kellonaika.`,
    postalcode: (s) => `Tarkista ${s.l}: se ei ole valitun maan postinumero.`,
    phone: () => "Anna puhelinnumero numeroina, esimerkiksi +358 40 123 4567.",
    trimmed: (s) => `${s.L} ei voi alkaa eikä loppua välilyöntiin.`,
    merchant_id: () => "Kauppiastunnuksessa voi olla vain kirjaimia, numeroita, pisteitä ja yhdysmerkkejä.",
    basic_username: () => "Käyttäjätunnuksessa ei voi olla kaksoispistettä (:) eikä rivinvaihtoja.",
    basic_password: () => "Salasanassa ei voi olla rivinvaihtoja eikä muita ohjausmerkkejä.",
    pickup_point: () => "Valitse listasta kotiinkuljetus, kirje tai noutopiste.",
    quote: () => "Hintatarjous on vioittunut: hae toimitusvaihtoehdot uudelleen.",
    cursor: () => "Sivulinkki ei enää toimi: palaa ensimmäiselle sivulle.",
    id: () => "Linkki on rikki: palaa takaisin ja avaa kohde listasta.",
    request_key: () => "Pyyntöä ei voitu lähettää turvallisesti: yritä uudelleen.",
    rule_value: () => "Tarkista arvo: se ei sovi tarkistettavaan tietoon.",
  },
};
