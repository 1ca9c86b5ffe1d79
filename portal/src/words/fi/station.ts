// Suomi: vastaanottopisteen sanat.
import type { Catalogue } from "../catalogue.ts";

const scans = (n: number) => (n === 1 ? "1 skannaus" : `${n} skannausta`);
const items = (n: number) => (n === 1 ? "1 kpl" : `${n} kpl`);

export const station: Pick<Catalogue, "station"> = {
  station: {
    title: "Vastaanotto",
    loading: "Ladataan…",
    signIn: "Kirjaudu sisään",
    signInAbout: "Kirjaudu sillä sähköpostiosoitteella ja salasanalla, jonka esimiehesi antoi.",
    email: "Sähköposti",
    password: "Salasana",
    newPasswordTitle: "Valitse uusi salasana",
    newPasswordAbout: "Salasanasi on vaihdettu. Valitse uusi, vähintään 10 merkin salasana.",
    currentPassword: "Saamasi salasana",
    newPassword: "Uusi salasana",
    saveNewPassword: "Tallenna ja jatka",
    sessionEnded: (n) =>
      n > 0
        ? `Sinut kirjattiin ulos. Kirjaudu uudelleen: lähettämättömät ${scans(n)} on tallessa ja lähetetään silloin.`
        : "Sinut kirjattiin ulos. Kirjaudu uudelleen jatkaaksesi.",
    roles: { receiver: "Vastaanottaja", supervisor: "Esimies" },
    online: "Yhteys toimii",
    offline: "Ei yhteyttä: skannaukset tallentuvat tähän laitteeseen",
    unsent: (n) => `${scans(n)} lähettämättä`,
    signOut: "Kirjaudu ulos",

    todayTitle: "Tämän päivän toimitukset",
    todayList: "Odotetaan tänään",
    openForm: "Avaa toimitus",
    openField: "Skannaa tarra tai kirjoita viite",
    open: "Avaa",
    notFound: (code) =>
      `Millään toimituksella ei ole koodia ”${code}”. Tarkista se ja yritä uudelleen, tai kysy esimieheltä.`,
    whichShipment: "Usealla toimituksella on tämä viite. Mikä niistä se on?",
    nothingToday: "Tänään ei odoteta toimituksia.",
    lineCount: (lines, n) => `${lines === 1 ? "1 tuote" : `${lines} tuotetta`}, ${items(n)}`,
    arrived: "Saapunut",
    openShipment: "Aloita laskenta",

    cameraOn: "Skannaa kameralla",
    cameraOff: "Sulje kamera",
    cameraFailed: "Kameraa ei saatu käyttöön. Käytä lukijaa tai kirjoita koodi.",
    cameraView: "Kameran kuva",

    closedNow:
      "Tämä toimitus on valmis tai peruttu. Uusia skannauksia ei lasketa: pyydä esimiestä avaamaan se uudelleen.",
    deletedNow:
      "Kauppa poisti tämän toimituksen. Uusia skannauksia ei lasketa: laita tavarat sivuun ja kerro esimiehelle.",
    scanForm: "Skannaus",
    quantity: "Kappaletta tässä skannauksessa (laatikko: kirjoita määrä)",
    scanField: "Skannaa viivakoodi tai kirjoita tuotteen nimi tai koodi",
    count: "Laske",
    counted: (p, added, now, expected) => `${p}: +${added}, nyt ${now}/${expected}`,
    countedExtra: (p, added, now) => `${p}: +${added}, nyt ${now} (ei lähetysluettelossa)`,
    linesTitle: "Tuotteet",
    notOnNotice: "ei lähetysluettelossa",
    ofExpected: (c, e) => `${c}/${e}`,
    notSentYet: (n) => `${n} lähettämättä`,
    finish: "Päätä vastaanotto",
    back: "Takaisin tämän päivän toimituksiin",

    overTitle: "Enemmän kuin odotettiin",
    overText: (p, would, e) => `Tuotetta ${p} tulee nyt ${would}, mutta odotettiin ${e}. Lasketaanko silti?`,
    countAnyway: "Kyllä, laske",
    dontCount: "Älä laske",
    whichProduct: "Mikä tuote on kyseessä?",
    sameGtin: "Tämä viivakoodi on toimituksessa useammalla tuotteella. Valitse se, joka on kädessäsi.",
    byName: "Nämä tuotteet vastaavat kirjoittamaasi. Valitse se, joka on kädessäsi.",
    noMatchTitle: "Ei löytynyt",
    badGtin: "Viivakoodia ei luettu oikein. Skannaa se uudelleen.",
    noMatch: (code) =>
      `Mikään tämän toimituksen tuote ei vastaa hakua ”${code}”. Tarkista se tai kirjoita tuotteen nimi tai koodi.`,
    ok: "OK",
    notOnNoticeTitle: "Ei lähetysluettelossa",
    notOnNoticeText: (gtin) =>
      `Viivakoodia ${gtin} ei ole tämän toimituksen lähetysluettelossa. Jos se on jokin alla olevista tuotteista, valitse se. Muuten kirjaa se tuotteeksi, jota ei ollut luettelossa.`,
    supplierSku: "Tuotekoodi laatikossa (skannaa tai kirjoita)",
    productName: "Tuotteen nimi",
    newProductMissing: "Kirjoita tuotekoodi ja nimi.",
    recordNew: "Kirjaa luettelon ulkopuoliseksi",
    orPick: "Tai valitse tuote",

    refusedTitle: "Skannaukset, joita ei laskettu",
    refusal: {
      removed:
        "Kauppa poisti tämän toimituksen, joten näitä skannauksia ei voi laskea. Laita tavarat sivuun ja kerro esimiehelle.",
      closed:
        "Tämä toimitus päätettiin tai peruttiin sillä välin toisella laitteella tai esimiehen toimesta. Pyydä esimiestä avaamaan se uudelleen ja lähetä sitten nämä skannaukset uudelleen.",
      reused:
        "Nämä skannaukset ovat ristiriidassa tältä laitteelta aiemmin lähetettyjen kanssa. Hylkää ne ja skannaa tuotteet uudelleen.",
      forbidden: "Sinulla ei ole oikeutta laskea tätä toimitusta. Kysy esimieheltä.",
      rejected: "Palvelu ei hyväksynyt näitä skannauksia. Hylkää ne ja skannaa tuotteet uudelleen.",
    },
    stale:
      "Nämä skannaukset ovat yli vuorokauden vanhoja, ja ne on ehkä jo laskettu. Tarkista määrät: lähetä ne vain, jos ne puuttuvat.",
    sendAgain: "Lähetä uudelleen",
    discard: "Hylkää",

    finishTitle: (ref) => `Päätä ${ref}`,
    finishUnsent: (n) =>
      `Tästä toimituksesta on ${scans(n)} lähettämättä. Voit päättää, kun ne on lähetetty: tarkista yhteys ja odota hetki.`,
    differencesTitle: "Verrattuna lähetysluetteloon",
    noDifferences: "Kaikki luettelon tuotteet saapuivat, eikä mitään ylimääräistä.",
    difference: (p, c, e) =>
      e === 0
        ? `${p}: ${items(c)}, joita ei ollut luettelossa`
        : c < e
          ? `${p}: ${e - c} vähemmän kuin odotettiin (${c}/${e})`
          : `${p}: ${c - e} enemmän kuin odotettiin (${c}/${e})`,
    supervisorFinishes: "Vain esimies voi päättää toimituksen, jossa on eroja. Kysy esimieheltä.",
    finishNow: "Päätä",
    finishWithDifferences: "Päätä näillä eroilla",
    backToScanning: "Takaisin laskentaan",
    finishedClean: "Valmis. Kaupalle kerrotaan, että kaikki saapui.",
    finishedWithDifferences: "Valmis, eroineen. Kaupalle kerrotaan, ja se selvittää erot.",
    finishedAccepted: "Valmis. Erot jäävät kirjatuiksi sellaisinaan.",
    backToToday: "Takaisin tämän päivän toimituksiin",
  },
};
