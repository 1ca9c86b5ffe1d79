// Source of the demo pickup point directory shipped in server/pickup-points/demo/: realistic-looking Finnish
// points around Kaarina 20780, Turku, central Helsinki, Espoo and Tampere, and the postal-code locations of
// the demo area and of the larger Finnish towns. Names, streets and coordinates are plausible, not authoritative.
// `npm run build:demo-pickup-points` rewrites the files; ids are derived from the names, so they stay stable.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { components } from "../generated/api.ts";
import { formatGeoNamesLine, type PostalCodeLocation } from "../server/pickup-points/geonames-format.ts";

type PickupPoint = components["schemas"]["PickupPoint"];
type Kind = "posti_shop" | "posti_locker" | "posti_office" | "mh_shop" | "mh_office" | "schenker";
type Row = [
  name: string,
  address: string,
  postalcode: string,
  city: string,
  lat: number,
  lon: number,
  kind: Kind,
  hours: string | null,
];

const SHOP = "Mon-Fri 7-21, Sat 8-21, Sun 10-21";
const MARKET = "Mon-Sat 7-22, Sun 10-22";
const KIOSK = "Mon-Fri 6-22, Sat 8-22, Sun 10-22";
const LOCKER = "Mon-Sun 0-24";
const MALL = "Mon-Fri 9-21, Sat 9-18, Sun 12-18";

const ROWS: Row[] = [
  // Kaarina and its villages
  ["K-Market Kaarina Oskari", "Oskarinaukio 3", "20780", "KAARINA", 60.4074, 22.3683, "posti_shop", SHOP],
  ["S-market Kaarina", "Piispanlähteenkatu 4", "20780", "KAARINA", 60.4062, 22.3712, "mh_shop", MARKET],
  [
    "Posti Pakettiautomaatti S-market Kaarina",
    "Piispanlähteenkatu 4",
    "20780",
    "KAARINA",
    60.4063,
    22.3714,
    "posti_locker",
    LOCKER,
  ],
  ["R-Kioski Kaarina Hovirinta", "Hovirinnantie 1", "20780", "KAARINA", 60.4091, 22.3632, "mh_shop", KIOSK],
  ["Posti Kaarina", "Lautakunnankatu 2", "20780", "KAARINA", 60.4059, 22.3664, "posti_office", "Mon-Fri 9-18"],
  [
    "DB Schenker Kaarina Voivala",
    "Voivalantie 6",
    "20780",
    "KAARINA",
    60.4012,
    22.3774,
    "schenker",
    "Mon-Fri 8-20, Sat 9-16",
  ],
  [
    "K-Supermarket Piispanristi",
    "Vanha Tampereentie 1",
    "20760",
    "PIISPANRISTI",
    60.4296,
    22.3501,
    "posti_shop",
    MARKET,
  ],
  [
    "Matkahuolto Piispanristi ABC",
    "Ravattulantie 2",
    "20760",
    "PIISPANRISTI",
    60.4318,
    22.3552,
    "mh_office",
    "Mon-Sun 6-22",
  ],
  ["K-Market Littoinen", "Littoistentie 12", "20660", "LITTOINEN", 60.4437, 22.381, "posti_shop", SHOP],
  ["K-Market Piikkiö", "Hadvalantie 2", "21500", "PIIKKIÖ", 60.4243, 22.5174, "posti_shop", SHOP],
  ["R-Kioski Piikkiö", "Hovintie 1", "21500", "PIIKKIÖ", 60.4231, 22.5149, "mh_shop", KIOSK],
  [
    "K-Market Kuusisto",
    "Kuusistontie 3",
    "21620",
    "KUUSISTO",
    60.3852,
    22.4569,
    "posti_shop",
    "Mon-Sat 8-21, Sun 12-21",
  ],
  // Turku and Raisio
  [
    "Posti Turku Hansa",
    "Yliopistonkatu 22",
    "20100",
    "TURKU",
    60.4506,
    22.2658,
    "posti_office",
    "Mon-Fri 9-19, Sat 10-16",
  ],
  ["R-Kioski Turku Kauppatori", "Aurakatu 8", "20100", "TURKU", 60.4518, 22.2679, "mh_shop", KIOSK],
  ["K-Market Kaskenkatu", "Kaskenkatu 11", "20700", "TURKU", 60.4452, 22.2758, "posti_shop", SHOP],
  ["S-market Kupittaa", "Lemminkäisenkatu 32", "20520", "TURKU", 60.4471, 22.2915, "mh_shop", MARKET],
  [
    "Posti Pakettiautomaatti Kupittaan asema",
    "Joukahaisenkatu 2",
    "20520",
    "TURKU",
    60.4502,
    22.296,
    "posti_locker",
    LOCKER,
  ],
  ["Prisma Itäharju", "Uudenmaankatu 19", "20700", "TURKU", 60.4548, 22.3054, "posti_shop", "Mon-Sat 7-23, Sun 9-23"],
  [
    "Matkahuolto Turku Linja-autoasema",
    "Aninkaistenkatu 20",
    "20100",
    "TURKU",
    60.4566,
    22.2651,
    "mh_office",
    "Mon-Fri 8-18, Sat 9-15",
  ],
  ["Kauppakeskus Skanssi Posti", "Skanssinkatu 10", "20730", "TURKU", 60.434, 22.3075, "posti_shop", MALL],
  ["R-Kioski Skanssi", "Skanssinkatu 10", "20730", "TURKU", 60.4342, 22.3079, "mh_shop", MALL],
  ["K-Citymarket Länsikeskus", "Markulantie 152", "20360", "TURKU", 60.4672, 22.201, "posti_shop", "Mon-Sun 7-23"],
  ["S-market Varissuo", "Nisse Kavon katu 3", "20610", "TURKU", 60.4451, 22.348, "mh_shop", MARKET],
  [
    "Posti Pakettiautomaatti Kauppakeskus Mylly",
    "Myllynkatu 1",
    "21280",
    "RAISIO",
    60.4821,
    22.1925,
    "posti_locker",
    LOCKER,
  ],
  // Central Helsinki
  [
    "K-Market Kamppi",
    "Urho Kekkosen katu 1",
    "00100",
    "HELSINKI",
    60.16916,
    24.93169,
    "posti_shop",
    "Mon-Fri 7-22, Sat 8-22, Sun 10-22",
  ],
  ["R-kioski Rautatientori", "Kaivokatu 1", "00100", "HELSINKI", 60.17098, 24.94146, "mh_shop", null],
  [
    "Posti Helsinki Kamppi",
    "Urho Kekkosen katu 4-6",
    "00100",
    "HELSINKI",
    60.1686,
    24.9313,
    "posti_office",
    "Mon-Fri 8-20, Sat 10-16",
  ],
  [
    "Posti Pakettiautomaatti Forum",
    "Mannerheimintie 14-20",
    "00100",
    "HELSINKI",
    60.1693,
    24.9378,
    "posti_locker",
    "Mon-Sat 7-22, Sun 11-19",
  ],
  [
    "Matkahuolto Kampin keskus",
    "Salomonkatu 3",
    "00100",
    "HELSINKI",
    60.1692,
    24.9308,
    "mh_office",
    "Mon-Fri 7-21, Sat-Sun 9-18",
  ],
  ["S-market Kluuvi", "Aleksanterinkatu 9", "00100", "HELSINKI", 60.1697, 24.9469, "mh_shop", MARKET],
  [
    "DB Schenker Kamppi",
    "Runeberginkatu 1",
    "00100",
    "HELSINKI",
    60.1703,
    24.929,
    "schenker",
    "Mon-Fri 7-21, Sat 9-18",
  ],
  ["K-Market Fredrikinkatu", "Fredrikinkatu 22", "00120", "HELSINKI", 60.1628, 24.9395, "posti_shop", SHOP],
  ["R-Kioski Iso Roobertinkatu", "Iso Roobertinkatu 20", "00120", "HELSINKI", 60.1618, 24.942, "mh_shop", KIOSK],
  ["Posti Pakettiautomaatti Bulevardi", "Bulevardi 9", "00120", "HELSINKI", 60.1656, 24.9381, "posti_locker", LOCKER],
  ["K-Market Kasarmikatu", "Kasarmikatu 23", "00130", "HELSINKI", 60.1638, 24.9475, "posti_shop", SHOP],
  ["R-Kioski Erottaja", "Erottajankatu 2", "00130", "HELSINKI", 60.1665, 24.9438, "mh_shop", KIOSK],
  ["S-market Eira", "Tehtaankatu 12", "00140", "HELSINKI", 60.1585, 24.945, "mh_shop", MARKET],
  ["K-Market Katajanokka", "Kauppiaankatu 4", "00160", "HELSINKI", 60.1679, 24.9636, "posti_shop", SHOP],
  ["K-Market Kruununhaka", "Liisankatu 21", "00170", "HELSINKI", 60.1728, 24.955, "posti_shop", SHOP],
  ["R-Kioski Snellmaninkatu", "Snellmaninkatu 13", "00170", "HELSINKI", 60.1722, 24.9531, "mh_shop", KIOSK],
  [
    "Posti Pakettiautomaatti Kruununhaka",
    "Maurinkatu 6",
    "00170",
    "HELSINKI",
    60.1734,
    24.9576,
    "posti_locker",
    LOCKER,
  ],
  ["K-Supermarket Ruoholahti", "Itämerenkatu 21", "00180", "HELSINKI", 60.1627, 24.9128, "posti_shop", MARKET],
  ["S-market Ruoholahti", "Ruoholahdenkatu 21", "00180", "HELSINKI", 60.164, 24.923, "mh_shop", MARKET],
  [
    "DB Schenker Lapinlahdenkatu",
    "Lapinlahdenkatu 16",
    "00180",
    "HELSINKI",
    60.1672,
    24.9262,
    "schenker",
    "Mon-Fri 8-21, Sat 10-18",
  ],
  [
    "Posti Pakettiautomaatti Hietalahti",
    "Hietalahdenranta 13",
    "00180",
    "HELSINKI",
    60.1612,
    24.929,
    "posti_locker",
    LOCKER,
  ],
  ["K-Market Töölöntori", "Runeberginkatu 55", "00260", "HELSINKI", 60.1786, 24.9236, "posti_shop", SHOP],
  ["R-Kioski Kallio", "Helsinginkatu 1", "00500", "HELSINKI", 60.1843, 24.9508, "mh_shop", KIOSK],
  ["K-Market Hakaniemi", "Siltasaarenkatu 16", "00530", "HELSINKI", 60.1799, 24.9515, "posti_shop", SHOP],
  // Espoo
  ["Posti Iso Omena", "Piispansilta 11", "02230", "ESPOO", 60.1611, 24.7381, "posti_office", MALL],
  ["Matkahuolto Iso Omena", "Piispansilta 11", "02230", "ESPOO", 60.1614, 24.7386, "mh_office", MALL],
  ["K-Citymarket Sello", "Leppävaarankatu 3-9", "02600", "ESPOO", 60.2178, 24.8108, "posti_shop", "Mon-Sun 7-23"],
  ["R-Kioski Tapiola", "Länsituulentie 4", "02100", "ESPOO", 60.1753, 24.8046, "mh_shop", KIOSK],
  [
    "Posti Pakettiautomaatti Espoon keskus",
    "Kirkkojärventie 6",
    "02770",
    "ESPOO",
    60.2049,
    24.6562,
    "posti_locker",
    LOCKER,
  ],
  // Tampere
  ["Posti Tampere Koskikeskus", "Hatanpään valtatie 1", "33100", "TAMPERE", 61.4946, 23.7646, "posti_office", MALL],
  ["R-Kioski Tampere Hämeenkatu", "Hämeenkatu 14", "33100", "TAMPERE", 61.4983, 23.7622, "mh_shop", KIOSK],
  [
    "Matkahuolto Tampere Linja-autoasema",
    "Hatanpään valtatie 7",
    "33100",
    "TAMPERE",
    61.493,
    23.77,
    "mh_office",
    "Mon-Fri 8-18, Sat 9-15",
  ],
  ["K-Market Kaleva", "Sammonkatu 45", "33540", "TAMPERE", 61.4985, 23.8055, "posti_shop", SHOP],
  ["S-market Hervanta", "Insinöörinkatu 23", "33720", "TAMPERE", 61.4503, 23.8506, "mh_shop", MARKET],
  [
    "Posti Pakettiautomaatti Prisma Lielahti",
    "Lielahdenkatu 25",
    "33400",
    "TAMPERE",
    61.517,
    23.669,
    "posti_locker",
    LOCKER,
  ],
];

// [postalcode, place, region, region code, municipality, municipality code, lat, lon]
type PostalRow = [string, string, string, string, string, string, number, number];
const POSTAL: PostalRow[] = [
  ["20780", "Kaarina", "Varsinais-Suomi", "02", "Kaarina", "202", 60.407, 22.369],
  ["20760", "Piispanristi", "Varsinais-Suomi", "02", "Kaarina", "202", 60.43, 22.352],
  ["20660", "Littoinen", "Varsinais-Suomi", "02", "Kaarina", "202", 60.444, 22.385],
  ["21500", "Piikkiö", "Varsinais-Suomi", "02", "Kaarina", "202", 60.425, 22.515],
  ["21620", "Kuusisto", "Varsinais-Suomi", "02", "Kaarina", "202", 60.385, 22.46],
  ["20100", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.4518, 22.2666],
  ["20500", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.447, 22.278],
  ["20520", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.449, 22.293],
  ["20700", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.45, 22.29],
  ["20730", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.433, 22.305],
  ["20360", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.468, 22.205],
  ["20610", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.445, 22.347],
  ["20900", "Turku", "Varsinais-Suomi", "02", "Turku", "853", 60.405, 22.245],
  ["21200", "Raisio", "Varsinais-Suomi", "02", "Raisio", "680", 60.486, 22.169],
  ["21280", "Raisio", "Varsinais-Suomi", "02", "Raisio", "680", 60.482, 22.195],
  ["21100", "Naantali", "Varsinais-Suomi", "02", "Naantali", "529", 60.468, 22.026],
  ["21420", "Lieto", "Varsinais-Suomi", "02", "Lieto", "423", 60.502, 22.456],
  ["21530", "Paimio", "Varsinais-Suomi", "02", "Paimio", "577", 60.457, 22.688],
  ["21600", "Parainen", "Varsinais-Suomi", "02", "Parainen", "445", 60.304, 22.301],
  ["24100", "Salo", "Varsinais-Suomi", "02", "Salo", "734", 60.385, 23.128],
  ["23500", "Uusikaupunki", "Varsinais-Suomi", "02", "Uusikaupunki", "895", 60.8, 21.408],
  ["00100", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.17116, 24.93265],
  ["00120", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.1632, 24.9395],
  ["00130", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.165, 24.947],
  ["00140", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.158, 24.951],
  ["00150", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.158, 24.939],
  ["00160", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.1675, 24.964],
  ["00170", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.1725, 24.9545],
  ["00180", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.164, 24.922],
  ["00200", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.159, 24.877],
  ["00250", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.183, 24.919],
  ["00260", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.177, 24.924],
  ["00500", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.186, 24.961],
  ["00510", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.191, 24.945],
  ["00530", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.18, 24.953],
  ["00550", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.196, 24.957],
  ["00610", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.211, 24.95],
  ["00700", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.251, 25.012],
  ["00900", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.228, 25.085],
  ["00980", "Helsinki", "Uusimaa", "01", "Helsinki", "091", 60.21, 25.145],
  ["02100", "Espoo", "Uusimaa", "01", "Espoo", "049", 60.175, 24.805],
  ["02150", "Espoo", "Uusimaa", "01", "Espoo", "049", 60.186, 24.827],
  ["02230", "Espoo", "Uusimaa", "01", "Espoo", "049", 60.161, 24.739],
  ["02600", "Espoo", "Uusimaa", "01", "Espoo", "049", 60.219, 24.812],
  ["02770", "Espoo", "Uusimaa", "01", "Espoo", "049", 60.205, 24.656],
  ["01300", "Vantaa", "Uusimaa", "01", "Vantaa", "092", 60.293, 25.038],
  ["01510", "Vantaa", "Uusimaa", "01", "Vantaa", "092", 60.297, 24.965],
  ["01600", "Vantaa", "Uusimaa", "01", "Vantaa", "092", 60.262, 24.854],
  ["04200", "Kerava", "Uusimaa", "01", "Kerava", "245", 60.403, 25.105],
  ["04400", "Järvenpää", "Uusimaa", "01", "Järvenpää", "186", 60.474, 25.09],
  ["05800", "Hyvinkää", "Uusimaa", "01", "Hyvinkää", "106", 60.631, 24.861],
  ["06100", "Porvoo", "Uusimaa", "01", "Porvoo", "638", 60.393, 25.665],
  ["08100", "Lohja", "Uusimaa", "01", "Lohja", "444", 60.249, 24.065],
  ["02400", "Kirkkonummi", "Uusimaa", "01", "Kirkkonummi", "257", 60.123, 24.438],
  ["33100", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.497, 23.763],
  ["33200", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.499, 23.74],
  ["33400", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.516, 23.675],
  ["33500", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.503, 23.785],
  ["33540", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.498, 23.805],
  ["33720", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.45, 23.85],
  ["33900", "Tampere", "Pirkanmaa", "06", "Tampere", "837", 61.47, 23.74],
  ["37100", "Nokia", "Pirkanmaa", "06", "Nokia", "536", 61.478, 23.508],
  ["36200", "Kangasala", "Pirkanmaa", "06", "Kangasala", "211", 61.464, 24.065],
  ["13100", "Hämeenlinna", "Kanta-Häme", "05", "Hämeenlinna", "109", 60.996, 24.464],
  ["11100", "Riihimäki", "Kanta-Häme", "05", "Riihimäki", "694", 60.739, 24.773],
  ["15100", "Lahti", "Päijät-Häme", "07", "Lahti", "398", 60.983, 25.656],
  ["28100", "Pori", "Satakunta", "04", "Pori", "609", 61.485, 21.797],
  ["26100", "Rauma", "Satakunta", "04", "Rauma", "684", 61.128, 21.511],
  ["40100", "Jyväskylä", "Keski-Suomi", "13", "Jyväskylä", "179", 62.242, 25.747],
  ["45100", "Kouvola", "Kymenlaakso", "08", "Kouvola", "286", 60.868, 26.704],
  ["48100", "Kotka", "Kymenlaakso", "08", "Kotka", "285", 60.467, 26.945],
  ["53100", "Lappeenranta", "Etelä-Karjala", "09", "Lappeenranta", "405", 61.059, 28.187],
  ["50100", "Mikkeli", "Etelä-Savo", "10", "Mikkeli", "491", 61.688, 27.272],
  ["57100", "Savonlinna", "Etelä-Savo", "10", "Savonlinna", "740", 61.869, 28.879],
  ["70100", "Kuopio", "Pohjois-Savo", "11", "Kuopio", "297", 62.892, 27.678],
  ["80100", "Joensuu", "Pohjois-Karjala", "12", "Joensuu", "167", 62.601, 29.763],
  ["60100", "Seinäjoki", "Etelä-Pohjanmaa", "14", "Seinäjoki", "743", 62.79, 22.84],
  ["65100", "Vaasa", "Pohjanmaa", "15", "Vaasa", "905", 63.096, 21.616],
  ["67100", "Kokkola", "Keski-Pohjanmaa", "16", "Kokkola", "272", 63.838, 23.131],
  ["90100", "Oulu", "Pohjois-Pohjanmaa", "17", "Oulu", "564", 65.012, 25.468],
  ["87100", "Kajaani", "Kainuu", "18", "Kajaani", "205", 64.227, 27.728],
  ["96100", "Rovaniemi", "Lappi", "19", "Rovaniemi", "698", 66.503, 25.729],
  ["94100", "Kemi", "Lappi", "19", "Kemi", "240", 65.736, 24.564],
  ["95400", "Tornio", "Lappi", "19", "Tornio", "851", 65.848, 24.146],
  ["99800", "Ivalo", "Lappi", "19", "Inari", "148", 68.658, 27.54],
];

const hex = (s: string) => createHash("sha256").update(s).digest("hex");

function carrierInfo(name: string, postalcode: string, kind: Kind, h: string): PickupPoint["carrier_info"] {
  const digits = String(parseInt(h.slice(0, 8), 16));
  switch (kind) {
    case "posti_shop":
    case "posti_office":
      return {
        fi_posti: {
          id: digits.slice(-6).padStart(6, "1"),
          label_name: name,
          type: kind === "posti_office" ? "POSTOFFICE" : "PICKUPPOINT",
          office: postalcode,
        },
      };
    case "posti_locker":
      return {
        fi_posti: { id: digits.slice(-6).padStart(6, "2"), label_name: name, type: "PARCELLOCKER", office: postalcode },
      };
    case "mh_shop":
    case "mh_office":
      return {
        fi_matkahuolto: {
          id: digits.slice(-4).padStart(4, "9"),
          ...(kind === "mh_office" ? { label_name: name, type: "OFFICE" } : {}),
        },
      };
    case "schenker":
      return {
        fi_db_schenker: { id: `FI${digits.slice(-5).padStart(5, "0")}`, label_name: name, type: "PICKUPPOINT" },
      };
  }
}

// Matkahuolto's shops carry no type: the demo says what they are, as an operator's import file may (kind.ts maps the rest).
const POINT_KIND: Record<Kind, PickupPoint["kind"]> = {
  posti_shop: "counter",
  posti_locker: "locker",
  posti_office: "counter",
  mh_shop: "counter",
  mh_office: "counter",
  schenker: "counter",
};

const BRANCH: Record<Kind, string> = {
  posti_shop: "fi.posti",
  posti_locker: "fi.posti",
  posti_office: "fi.posti",
  mh_shop: "fi.matkahuolto",
  mh_office: "fi.matkahuolto",
  schenker: "fi.db_schenker",
};

// The two points of the spec's examples, as the spec shows them, so that its examples (an order's pickup point
// destination, a lookup at 00100) work against the demo data.
const SPEC_EXAMPLES: Record<string, Pick<PickupPoint, "id" | "carrier_info">> = {
  "K-Market Kamppi": {
    id: "5a1f0c2e9b8d7a6f5e4d3c2b",
    carrier_info: { fi_posti: { id: "124301", label_name: "K-Market Kamppi", type: "PICKUPPOINT", office: "00100" } },
  },
  "R-kioski Rautatientori": { id: "5a1f0c2e9b8d7a6f5e4d3c2c", carrier_info: { fi_matkahuolto: { id: "9617" } } },
};

export function demoPickupPoints(): PickupPoint[] {
  return ROWS.map(([name, address, postalcode, city, lat, lon, kind, hours]) => {
    const h = hex(`demo-pickup-point:${name}`);
    return {
      id: h.slice(0, 24),
      name,
      address,
      postalcode,
      city,
      country: "FI",
      coordinates: [lat, lon],
      branch: BRANCH[kind],
      location_info: hours,
      carrier_info: carrierInfo(name, postalcode, kind, h.slice(24)),
      kind: POINT_KIND[kind],
      ...SPEC_EXAMPLES[name],
    };
  });
}

export function demoPostalCodes(): PostalCodeLocation[] {
  return POSTAL.map(([postalcode, place, region, regionCode, municipality, municipalityCode, lat, lon]) => ({
    country: "FI",
    postalcode,
    place_name: place,
    admin_name1: region,
    admin_code1: regionCode,
    admin_name2: municipality,
    admin_code2: municipalityCode,
    admin_name3: null,
    admin_code3: null,
    coordinates: [lat, lon],
    accuracy: 4,
  }));
}

export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../server/pickup-points/demo");
/** One point per line: readable diffs, still a plain JSON array. */
export const demoPointsText = () =>
  "[\n" +
  demoPickupPoints()
    .map((p) => "  " + JSON.stringify(p))
    .join(",\n") +
  "\n]\n";
export const demoPostalCodesText = () => demoPostalCodes().map(formatGeoNamesLine).join("\n") + "\n";

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(DEMO_DIR, "pickup-points.json"), demoPointsText());
  writeFileSync(path.join(DEMO_DIR, "postal-codes.txt"), demoPostalCodesText());
  console.log(`wrote ${ROWS.length} pickup points and ${POSTAL.length} postal codes to ${DEMO_DIR}`);
}
