// Suomi: Webhookit-osion omat sanat (tapahtumatyypit, toimitusten tilat ja epäonnistumisen syyt ovat statuses.ts:ssä).
import type { Catalogue } from "../catalogue.ts";

const tries = (n: number) => (n === 0 ? "Ei vielä yritetty" : `Yritetty ${n === 1 ? "kerran" : `${n} kertaa`}`);

export const webhooks: Pick<Catalogue, "webhooks"> = {
  webhooks: {
    title: "Webhookit",
    about:
      "Vastaanottajat ovat järjestelmiesi verkko-osoitteita, joihin lähetämme tapahtumia. Täällä näet ne ja sen, miten kukin toimitus meni.",
    newSecretTitle: "Uuden vastaanottajan allekirjoitusavain",
    newSecretAbout: (url) =>
      `Järjestelmäsi tarkistaa tällä avaimella, että osoitteeseen ${url} tulevat tapahtumat ovat meiltä. Avain näytetään vain nyt: kopioi se järjestelmäsi asetuksiin.`,
    notSentTo: (url) => `Tapahtumia ei lähetetä osoitteeseen ${url}`,
    notSent: "Tapahtumia ei lähetetä",
    notSentHere: "Tälle vastaanottajalle ei lähetetä tapahtumia",
    openEndpoint: "Avaa tämä vastaanottaja",
    endpoints: "Vastaanottajat",
    address: "Osoite",
    events: "Tapahtumat",
    state: "Tila",
    added: "Lisätty",
    noEndpoints: "Vastaanottajia ei vielä ole: lisää ensimmäinen alla.",
    newEndpoint: "Uusi vastaanottaja",
    addTitle: "Lisää vastaanottaja",
    url: "Vastaanottavan järjestelmäsi verkko-osoite",
    urlExample: "https://erp.esimerkki.fi/hooks/logistiikka",
    add: "Lisää vastaanottaja",
    eventsToSend: "Lähetettävät tapahtumat",
    endpoint: "Vastaanottaja",
    turnedOff: "Lähetys pysäytetty.",
    turnedOn: "Lähetys jatkuu taas.",
    testSent: "Testitapahtuma on matkalla: katso Toimitukset alla.",
    eventsSaved: "Tapahtumat tallennettu.",
    rotatedTitle: "Uusi allekirjoitusavain",
    rotatedAbout: (hours, until) =>
      `Avain näytetään vain nyt: kopioi se järjestelmäsi asetuksiin. Vanha avain toimii vielä ${hours} tuntia, ${until} asti: siihen asti jokainen tapahtuma allekirjoitetaan kummallakin, joten järjestelmäsi hyväksyy tapahtumat, kun vaihdat avainta. Sen jälkeen vain uusi avain toimii.`,
    sendTest: "Lähetä testitapahtuma",
    turnOff: "Pysäytä lähetys",
    turnOn: "Jatka lähetystä",
    rotate: "Tee uusi allekirjoitusavain",
    thisEndpointsEvents: "Tämän vastaanottajan tapahtumat",
    saveEvents: "Tallenna tapahtumat",
    turnOffQuestion: "Pysäytetäänkö lähetys?",
    turnOffWhat: (url) => `Lopetamme tapahtumien lähettämisen osoitteeseen ${url}.`,
    turnOffAfter:
      "Tapahtumia, jotka syntyvät lähetyksen ollessa pysäytettynä, ei lähetetä myöhemmin. Jo odottavat toimitukset pidetään, kunnes jatkat lähetystä.",
    rotateQuestion: "Tehdäänkö uusi allekirjoitusavain?",
    rotateConfirm: "Tee uusi avain",
    rotateWhat: (hours) =>
      `Teemme uuden avaimen ja näytämme sen sinulle kerran. ${hours} tunnin ajan allekirjoitamme jokaisen tapahtuman sekä vanhalla että uudella avaimella, joten järjestelmäsi hyväksyy tapahtumat, kun vaihdat avainta. Sen jälkeen vain uusi avain toimii.`,
    copySecret: "Kopioi avain",
    stored: "Olen tallentanut sen",

    deliveries: "Toimitukset",
    refresh: "Päivitä",
    deliveriesAbout:
      "Uusimmat ensin. Matkalla olevat toimitukset päivittyvät itsestään; epäonnistunutta yritämme uudelleen noin vuorokauden ajan.",
    event: "Tapahtuma",
    status: "Tila",
    whyFailed: "Miksi se epäonnistui",
    actions: "Toiminnot",
    eventOf: (event, time) => `${event}, ${time}`,
    shipment: (ref) => `Lähetys ${ref}`,
    sentAgainSince: "Lähetetty sittemmin uudelleen: katso uudempi rivi.",
    details: "Tiedot",
    detailsOf: (what) => `Tiedot: ${what}`,
    retry: "Yritä nyt uudelleen",
    retryOf: (what) => `Yritä nyt uudelleen: ${what}`,
    nothingSent: "Mitään ei ole vielä lähetetty.",
    delivery: "Toimitus",
    happened: "Tapahtui",
    shipmentLabel: "Lähetys",
    tries: "Yrityksiä",
    sendAgain: "Lähetä uudelleen",
    whatWeSend: "Mitä lähetämme",
    whatWeSendAbout: "Tämän tapahtuman sisältö täsmälleen sellaisena kuin järjestelmäsi sen saa (kehittäjällesi).",
    technical: "Viimeisen yrityksen tekniset tiedot (kehittäjällesi)",
    answerStatus: "Vastauksen tilakoodi",
    timeTaken: "Kesto",
    milliseconds: (ms) => `${ms} ms`,
    error: "Virhe",
    answerBegan: "Vastauksen alku",
    retrying: "Yritetään nyt uudelleen.",
    sendingAgain: "Lähetetään nyt uudelleen.",

    busy: "Järjestelmäsi kertoi olevansa kiireinen ja pyysi odottamaan.",
    unavailable: "Järjestelmäsi kertoi, ettei se ole juuri nyt käytettävissä.",
    sentAt: (time, attempts) => (attempts > 1 ? `${time}, ${attempts}. yrityksellä` : time),
    beingSent: "Lähetetään parhaillaan",
    failedNoMore: (n, last) => `${tries(n)}, viimeksi ${last}; ei enää yrityksiä`,
    nextTry: (n, next) => `${tries(n)}; seuraava yritys ${next}`,
    triedTimes: tries,
    askedToWait: (until) =>
      `Järjestelmäsi pyysi odottamaan ennen uutta lähetystä${until ? ` ${until} asti` : ""}. Yritämme silloin itse uudelleen; voit myös painaa Yritä nyt uudelleen sen jälkeen.`,
    retryOff: "Lähetys tähän osoitteeseen on pysäytetty: jatka lähetystä yrittääksesi uudelleen.",

    stopped410:
      "Järjestelmäsi vastasi, ettei tämä osoite ole enää käytössä, joten lopetimme tapahtumien lähettämisen sinne.",
    failingSince: (since) =>
      `Jokainen yritys lähettää tapahtumia tänne on epäonnistunut ${since} lähtien, joten lopetimme niiden lähettämisen.`,
    keptFailing: "Tapahtumien lähettäminen tänne epäonnistui toistuvasti, joten lopetimme.",
    whatNow:
      "Pysäytyksen aikaisia tapahtumia ei lähetetä myöhemmin: toimitusloki näyttää, mitä jäi saamatta. Kun järjestelmäsi taas vastaanottaa tapahtumia, jatka lähetystä.",
    sending: "Lähettää tapahtumia",
    stoppedState: "Pysäytetty: ei vastaanota",
    off: "Pysäytetty",
  },
};
